// Splits the agent-facing text of level 1 around one skill's entry so the preview can highlight it,
// without changing a byte: joining the parts gives the input back exactly (level 2 comes from Rust
// already cut into its parts).
import type { IndexFormat } from "../bindings/IndexFormat";

/** Level 1 cut in three around one skill's entry, so the preview can mark where it sits. */
export type IndexSplit = { before: string; entry: string; after: string };

/**
 * Finds the entry of skill `name` in a level-1 text of either format. Returns null when the skill
 * is not in the text (hidden, invalid, or cut by the budget).
 */
export function splitIndex(text: string, format: IndexFormat, name: string): IndexSplit | null {
  const start =
    format === "skillcase"
      ? lineStart(text, `<skill name="${escapeHtml(name)}"`)
      : lineStart(text, `<skill>\n<name>\n${escapeHtml(name)}\n</name>`);
  if (start < 0) return null;
  const close = text.indexOf("</skill>", start);
  if (close < 0) return null;
  const end = close + "</skill>".length + (text[close + "</skill>".length] === "\n" ? 1 : 0);
  return { before: text.slice(0, start), entry: text.slice(start, end), after: text.slice(end) };
}

function lineStart(text: string, needle: string): number {
  if (text.startsWith(needle)) return 0;
  const at = text.indexOf(`\n${needle}`);
  return at < 0 ? -1 : at + 1;
}

/** The same escaping the index applies to names (Python's `html.escape`). */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
}
