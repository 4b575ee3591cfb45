// The reply box's saved-reply picker without DOM: where a `#query` is being typed, what the text
// becomes once a saved reply replaces it, and how the highlighted row moves.

/** A `#query` being typed: where its `#` is and what follows it up to the caret. */
export interface HashQuery {
  start: number;
  query: string;
}

/**
 * The `#query` that ends at `caret`, when the `#` starts a word (first character, or after a
 * space or line break) and no space comes between it and the caret; `null` otherwise.
 */
export function hashQueryAt(text: string, caret: number): HashQuery | null {
  const before = text.slice(0, caret);
  const start = before.lastIndexOf("#");
  if (start < 0) return null;
  if (start > 0 && !/\s/.test(before[start - 1])) return null;
  const query = before.slice(start + 1);
  if (/\s/.test(query)) return null;
  return { start, query };
}

/** The text with `from..to` replaced by `insertion`, and where the caret goes (after it). */
export function replaceRange(text: string, from: number, to: number, insertion: string): { text: string; caret: number } {
  return { text: text.slice(0, from) + insertion + text.slice(to), caret: from + insertion.length };
}

/**
 * What the Saved replies button types: a `#` at the caret, after a space when the caret is in
 * the middle of a word, so the picker opens exactly as if the person had typed it.
 */
export function hashForButton(text: string, caret: number): { text: string; caret: number } {
  const needsSpace = caret > 0 && !/\s/.test(text[caret - 1]);
  return replaceRange(text, caret, caret, needsSpace ? " #" : "#");
}

/** The highlighted row after moving `delta` among `count` rows, wrapping at both ends. */
export function moveHighlight(current: number, delta: number, count: number): number {
  if (count === 0) return 0;
  return (((current + delta) % count) + count) % count;
}
