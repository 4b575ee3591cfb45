import { describe, expect, it } from "vitest";
import { buildTree, flatten, previewOf } from "./tree";

describe("file tree", () => {
  const files = [
    { path: "references/z.md", size: 10, kind: "reference" as const },
    { path: "SKILL.md", size: 900, kind: "skill_md" as const },
    { path: "assets/logo.png", size: 2048, kind: "asset" as const },
    { path: "references/deep/a.md", size: 5, kind: "reference" as const },
    { path: "README.md", size: 3, kind: "reference" as const },
    { path: "skill.config.yaml", size: 40, kind: "config" as const },
  ];

  it("shows SKILL.md on top, then folders before files, each by name", () => {
    const rows = flatten(buildTree(files)).map(({ node, depth }) => `${"  ".repeat(depth)}${node.name}`);
    expect(rows).toEqual([
      "SKILL.md",
      "assets",
      "  logo.png",
      "references",
      "  deep",
      "    a.md",
      "  z.md",
      "README.md",
      "skill.config.yaml",
    ]);
  });

  it("keeps each file's manifest entry on its node", () => {
    const logo = flatten(buildTree(files)).find(({ node }) => node.path === "assets/logo.png")?.node;
    expect(logo).toMatchObject({ type: "file", file: { size: 2048, kind: "asset" } });
  });

  it("previews images, shows text files as text and other files by type and size", () => {
    expect(previewOf("assets/logo.PNG")).toEqual({ as: "image", mime: "image/png" });
    expect(previewOf("references/a.md")).toEqual({ as: "text" });
    expect(previewOf("assets/manual.pdf")).toEqual({ as: "binary" });
  });
});
