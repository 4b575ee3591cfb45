// Copying to the clipboard, with a fallback for web views that refuse the clipboard API.

/** Puts text on the clipboard: the clipboard API, else a hidden text area and `copy`. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}
