import { describe, expect, it } from "vitest";
import { editableFiles, offsetOfLine } from "./editing";

describe("editor rules", () => {
  it("offers SKILL.md first, then the text files, never images or binaries", () => {
    const manifest = [
      { path: "references/b.md", size: 1, sha256: "", kind: "reference" as const },
      { path: "assets/logo.png", size: 1, sha256: "", kind: "asset" as const },
      { path: "SKILL.md", size: 1, sha256: "", kind: "skill_md" as const },
      { path: "skill.config.yaml", size: 1, sha256: "", kind: "config" as const },
      { path: "assets/manual.pdf", size: 1, sha256: "", kind: "asset" as const },
    ];
    expect(editableFiles(manifest)).toEqual(["SKILL.md", "references/b.md", "skill.config.yaml"]);
  });

  it("finds where a line starts, for jumping to a finding", () => {
    const text = "---\nname: x\ndescription: y\n---\n";
    expect(offsetOfLine(text, 1)).toBe(0);
    expect(offsetOfLine(text, 3)).toBe(12);
    expect(offsetOfLine(text, 99)).toBe(text.length);
  });
});
