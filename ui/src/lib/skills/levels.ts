// Splits the agent-facing text of levels 1 and 2 into parts the preview can highlight, without
// changing a byte: joining the parts' `text` gives the input back exactly (the copy button and
// the tests rely on it).
import type { IndexFormat } from "../bindings/IndexFormat";

/** A part of a level-2 text: the skill body or one of the three reference blocks (SPEC A6). */
export type BlockKind = "body" | "required" | "optional" | "route_matched" | "gap";

export type Segment = {
  kind: BlockKind;
  /** The exact text of this part, tags included. */
  text: string;
  /** For `required` / `optional`: the listed paths; for `route_matched`: the inlined documents. */
  paths: string[];
};

const TAGS: Record<string, BlockKind> = {
  skill_required_references: "required",
  skill_optional_references: "optional",
  skill_route_matched_references: "route_matched",
};

/**
 * Splits level 2 (`read_skill`) into body and reference blocks. A block starts with its opening
 * tag alone on a line at the start of a paragraph; the list blocks end at their closing tag, and
 * the route-matched block (always last) at the last closing tag, so documents inlined in it may
 * quote anything. Blank lines between parts are kept as `gap` segments.
 */
export function splitActivation(text: string): Segment[] {
  const lines = text.split("\n");
  const segments: Segment[] = [];
  let body: string[] = [];
  const flushBody = () => {
    if (body.length === 0) return;
    // Blank lines that separate the body from the first block belong to a gap, not the body.
    let end = body.length;
    while (end > 0 && body[end - 1] === "") end--;
    if (end > 0) segments.push({ kind: "body", text: body.slice(0, end).join("\n"), paths: [] });
    if (end < body.length) segments.push({ kind: "gap", text: body.slice(end).join("\n"), paths: [] });
    body = [];
  };
  let i = 0;
  while (i < lines.length) {
    const open = /^<(skill_\w+_references)>$/.exec(lines[i]);
    const kind = open ? TAGS[open[1]] : undefined;
    const paragraphStart = i === 0 || lines[i - 1] === "";
    const close = open ? `</${open[1]}>` : "";
    const end = kind ? closingLine(lines, i, close, kind === "route_matched") : -1;
    if (!kind || !paragraphStart || end < 0) {
      body.push(lines[i]);
      i++;
      continue;
    }
    flushBody();
    const blockLines = lines.slice(i, end + 1);
    segments.push({ kind, text: blockLines.join("\n"), paths: blockPaths(kind, blockLines) });
    i = end + 1;
  }
  flushBody();
  return joinWithNewlines(segments);
}

function closingLine(lines: string[], from: number, close: string, last: boolean): number {
  if (last) return lines.lastIndexOf(close) > from ? lines.lastIndexOf(close) : -1;
  for (let j = from + 1; j < lines.length; j++) if (lines[j] === close) return j;
  return -1;
}

function blockPaths(kind: BlockKind, blockLines: string[]): string[] {
  if (kind === "route_matched") {
    return blockLines.flatMap((l) => /^--- (.+) ---$/.exec(l)?.[1] ?? []);
  }
  return blockLines.flatMap((l) => (l.startsWith("- ") ? [l.slice(2)] : []));
}

// Segments were cut at line boundaries; put each removed "\n" back at the end of the segment
// before it, so concatenating `text` reproduces the input byte for byte.
function joinWithNewlines(segments: Segment[]): Segment[] {
  return segments.map((s, i) => (i < segments.length - 1 ? { ...s, text: `${s.text}\n` } : s));
}

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
