// A skill's file manifest as a folder tree for the level-3 file browser.
import type { FileKind } from "../bindings/FileKind";

/** What the tree needs from a manifest entry (a `SkillFile` or a stored version's file). */
export type ManifestFile = { path: string; size: number; kind: FileKind };

export type TreeNode =
  | { type: "folder"; name: string; path: string; children: TreeNode[] }
  | { type: "file"; name: string; path: string; file: ManifestFile };

/**
 * Builds the tree: `SKILL.md` on top (the entry point), then folders before files at every
 * level, each group sorted by name.
 */
export function buildTree(files: readonly ManifestFile[]): TreeNode[] {
  const root: TreeNode[] = [];
  for (const file of files) {
    const parts = file.path.split("/");
    let level = root;
    for (let i = 0; i < parts.length - 1; i++) {
      const path = parts.slice(0, i + 1).join("/");
      let folder = level.find((n) => n.type === "folder" && n.name === parts[i]);
      if (!folder) {
        folder = { type: "folder", name: parts[i], path, children: [] };
        level.push(folder);
      }
      level = (folder as Extract<TreeNode, { type: "folder" }>).children;
    }
    level.push({ type: "file", name: parts[parts.length - 1], path: file.path, file });
  }
  sortLevel(root);
  return root;
}

function sortLevel(nodes: TreeNode[]): void {
  nodes.sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name));
  for (const node of nodes) if (node.type === "folder") sortLevel(node.children);
}

function order(node: TreeNode): number {
  if (node.type === "folder") return 1;
  return node.path === "SKILL.md" ? 0 : 2;
}

/** The tree in display order, one row per node with its depth: what the file list renders. */
export function flatten(nodes: readonly TreeNode[], depth = 0): { node: TreeNode; depth: number }[] {
  return nodes.flatMap((node) => [
    { node, depth },
    ...(node.type === "folder" ? flatten(node.children, depth + 1) : []),
  ]);
}

const TEXT_EXTENSIONS = new Set(["md", "txt", "csv", "json", "yaml", "yml", "html", "xml", "svg", "py", "sh", "js", "ts"]);
const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  svg: "image/svg+xml",
};

/** The lowercase extension of a path (`pdf` for `assets/a.PDF`), empty when there is none. */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase();
}

/** How the file pane shows a file: as text, as an image preview, or as type and size only. */
export function previewOf(path: string): { as: "text" } | { as: "image"; mime: string } | { as: "binary" } {
  const ext = extensionOf(path);
  if (ext in IMAGE_TYPES) return { as: "image", mime: IMAGE_TYPES[ext] };
  if (TEXT_EXTENSIONS.has(ext) || path === "SKILL.md" || ext === "") return { as: "text" };
  return { as: "binary" };
}
