import { describe, expect, it } from "vitest";
import { parseUnifiedDiff } from "./diff";

describe("unified diff", () => {
  it("numbers old and new lines through a hunk and counts changes per file", () => {
    const [file] = parseUnifiedDiff(
      ["--- a/SKILL.md", "+++ b/SKILL.md", "@@ -3,3 +3,3 @@", " keep", "-old line", "+new line", " tail"].join("\n"),
    );
    expect(file).toMatchObject({ oldPath: "SKILL.md", newPath: "SKILL.md", added: 1, removed: 1 });
    expect(file.hunks[0].lines).toEqual([
      { kind: "context", text: "keep", old: 3, new: 3 },
      { kind: "del", text: "old line", old: 4, new: null },
      { kind: "add", text: "new line", old: null, new: 4 },
      { kind: "context", text: "tail", old: 5, new: 5 },
    ]);
  });

  it("reads several files, including an added one", () => {
    const files = parseUnifiedDiff(
      ["--- a/SKILL.md", "+++ b/SKILL.md", "@@ -1 +1 @@", "-a", "+b", "--- /dev/null", "+++ b/references/new.md", "@@ -0,0 +1,2 @@", "+x", "+y"].join("\n"),
    );
    expect(files.map((f) => [f.oldPath, f.newPath, f.added, f.removed])).toEqual([
      ["SKILL.md", "SKILL.md", 1, 1],
      ["/dev/null", "references/new.md", 2, 0],
    ]);
  });

  it("does not count a removed line that starts with dashes as a file header", () => {
    const [file] = parseUnifiedDiff(["--- a/x.md", "+++ b/x.md", "@@ -1,2 +1,1 @@", "--- rule", " kept"].join("\n"));
    expect(file.hunks[0].lines[0]).toEqual({ kind: "del", text: "-- rule", old: 1, new: null });
  });
});

describe("a one-file diff without headers", () => {
  it("starts its file at the first hunk", () => {
    const files = parseUnifiedDiff(["@@ -1,2 +1,2 @@", " same", "-before", "+after"].join("\n"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ oldPath: "", newPath: "", added: 1, removed: 1 });
  });
});
