// Keyboard rules shared by the skill list and the screens: `/` focuses search unless the person
// is typing, arrows and paging keys move the selection, `Enter` opens.

/** True when a key press lands in a text field, where single-key shortcuts must stay off. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !["checkbox", "radio", "button", "submit", "reset"].includes(target.type);
  }
  return false;
}

/**
 * The selection after `key` in a list of `total` rows where `page` rows fit on screen, or null
 * when the key does not move it. With nothing selected (-1), any move selects the first row.
 */
export function moveSelection(key: string, current: number, total: number, page: number): number | null {
  if (total === 0) return null;
  const clamp = (i: number) => Math.max(0, Math.min(total - 1, i));
  switch (key) {
    case "ArrowDown":
      return current < 0 ? 0 : clamp(current + 1);
    case "ArrowUp":
      return current < 0 ? 0 : clamp(current - 1);
    case "PageDown":
      return clamp(Math.max(current, 0) + Math.max(1, page - 1));
    case "PageUp":
      return clamp(Math.max(current, 0) - Math.max(1, page - 1));
    case "Home":
      return 0;
    case "End":
      return total - 1;
    default:
      return null;
  }
}
