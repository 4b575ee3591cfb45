// The inbox's keyboard shortcuts. Single keys act only when no text field has focus; Ctrl+Enter
// (send), Ctrl+Shift+Enter (send, then open the next case waiting on you), Ctrl+Shift+N (write an
// internal note) and Esc work everywhere, because that is where a person types a reply.

export type Shortcut =
  | "next"
  | "previous"
  | "open"
  | "back"
  | "leaveField"
  | "search"
  | "resolved"
  | "needInfo"
  | "escalate"
  | "send"
  | "sendNext"
  | "note"
  | "pick"
  | "report"
  | "sort"
  | "view"
  | "take"
  | "help";

/** The part of a KeyboardEvent the shortcuts look at. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey?: boolean;
  target: EventTarget | null;
}

/** True when `target` takes typed text, so single-key shortcuts must stay off. */
export function isTextField(target: EventTarget | null): boolean {
  if (!target || typeof (target as HTMLElement).tagName !== "string") return false;
  const el = target as HTMLElement;
  if (el.isContentEditable) return true;
  if (el.tagName === "TEXTAREA" || el.tagName === "SELECT") return true;
  if (el.tagName !== "INPUT") return false;
  const type = (el as HTMLInputElement).type;
  return !["checkbox", "radio", "button", "submit", "reset"].includes(type);
}

const SINGLE: Record<string, Shortcut> = {
  j: "next",
  ArrowDown: "next",
  k: "previous",
  ArrowUp: "previous",
  Enter: "open",
  "/": "search",
  "1": "resolved",
  "2": "needInfo",
  "3": "escalate",
  x: "pick",
  r: "report",
  o: "sort",
  v: "view",
  t: "take",
  "?": "help",
};

/** The shortcut a key press means, or null when it means nothing (or the person is typing). */
export function shortcutFor(press: KeyPress): Shortcut | null {
  const typing = isTextField(press.target);
  if (press.key === "Enter" && (press.ctrlKey || press.metaKey)) return press.shiftKey ? "sendNext" : "send";
  if (press.key.toLowerCase() === "n" && (press.ctrlKey || press.metaKey) && press.shiftKey && !press.altKey) {
    return "note";
  }
  if (press.key === "Escape") return typing ? "leaveField" : "back";
  if (typing || press.ctrlKey || press.metaKey || press.altKey) return null;
  return SINGLE[press.key] ?? null;
}

/** The shortcuts shown by `?`, as [keys, message key] pairs. */
export const SHORTCUT_HELP = [
  ["j / k", "cases.keys.move"],
  ["Enter", "cases.keys.open"],
  ["x", "cases.keys.pick"],
  ["Esc", "cases.keys.back"],
  ["/", "cases.keys.search"],
  ["1 / 2 / 3", "cases.keys.action"],
  ["Ctrl+Enter", "cases.keys.send"],
  ["Ctrl+Shift+Enter", "cases.keys.sendNext"],
  ["Ctrl+Shift+N", "cases.keys.note"],
  ["r", "cases.keys.report"],
  ["o", "cases.keys.sort"],
  ["v", "cases.keys.view"],
  ["t", "cases.keys.take"],
  ["?", "cases.keys.help"],
] as const;
