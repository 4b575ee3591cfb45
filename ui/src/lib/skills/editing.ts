// Small text rules of the skill editor, kept apart so they can be tested without a textarea.
import type { ManifestEntry } from "../bindings/ManifestEntry";
import { previewOf } from "./tree";

/** The files the editor offers: `SKILL.md` first, then every other text file by path. */
export function editableFiles(manifest: readonly ManifestEntry[]): string[] {
  const text = manifest.filter((f) => f.path !== "SKILL.md" && previewOf(f.path).as === "text").map((f) => f.path);
  return ["SKILL.md", ...text.sort()];
}

/** The character offset where 1-based `line` starts in `text` (the end when it is past the last line). */
export function offsetOfLine(text: string, line: number): number {
  let at = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf("\n", at);
    if (next < 0) return text.length;
    at = next + 1;
  }
  return at;
}
