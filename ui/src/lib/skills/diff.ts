// Reads a unified diff (`--- a` / `+++ b` / `@@ -1,3 +1,4 @@` / ` `, `-`, `+` lines) into rows
// with old and new line numbers, for the version comparison view.

export type DiffLine = { kind: "context" | "add" | "del"; text: string; old: number | null; new: number | null };
export type DiffHunk = { header: string; lines: DiffLine[] };
export type DiffFile = { oldPath: string; newPath: string; hunks: DiffHunk[]; added: number; removed: number };

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * Parses every file section of `text` (a diff of one file may omit the `---`/`+++` header and
 * start with its first hunk); lines outside a hunk (`\ No newline`, `diff --git`) are skipped.
 */
export function parseUnifiedDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | null = null;
  let hunk: DiffHunk | null = null;
  let oldNo = 0;
  let newNo = 0;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      file = { oldPath: stripPrefix(line.slice(4)), newPath: stripPrefix(lines[i + 1].slice(4)), hunks: [], added: 0, removed: 0 };
      files.push(file);
      hunk = null;
      i++;
      continue;
    }
    const header = HUNK.exec(line);
    if (header && !file) {
      // A per-file diff may start straight with its first hunk.
      file = { oldPath: "", newPath: "", hunks: [], added: 0, removed: 0 };
      files.push(file);
    }
    if (header && file) {
      hunk = { header: line, lines: [] };
      file.hunks.push(hunk);
      oldNo = Number(header[1]);
      newNo = Number(header[2]);
      continue;
    }
    if (!hunk || !file) continue;
    if (line.startsWith("+")) {
      hunk.lines.push({ kind: "add", text: line.slice(1), old: null, new: newNo++ });
      file.added++;
    } else if (line.startsWith("-")) {
      hunk.lines.push({ kind: "del", text: line.slice(1), old: oldNo++, new: null });
      file.removed++;
    } else if (line.startsWith(" ")) {
      hunk.lines.push({ kind: "context", text: line.slice(1), old: oldNo++, new: newNo++ });
    }
  }
  return files;
}

// `a/SKILL.md` -> `SKILL.md`; `/dev/null` stays as it is (an added or removed file).
function stripPrefix(path: string): string {
  const clean = path.split("\t")[0];
  return /^[ab]\//.test(clean) ? clean.slice(2) : clean;
}
