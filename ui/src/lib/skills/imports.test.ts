import { describe, expect, it } from "vitest";
import type { ImportReport } from "../bindings/ImportReport";
import { importAll } from "./imports";

const imported: ImportReport = {
  name: "frete",
  installed: true,
  dry_run: false,
  replaced: false,
  version: { id: 3, name: "frete", content_hash: "h", source: "import", forked_from: null, created_at: "2026-11-30T15:00:00Z", validity: { errors: 0, warnings: 0 }, files: 1, bytes: 10, live: true },
  unchanged: false,
  files: [{ path: "SKILL.md", kind: "skill_md", size: 10, short_hash: "abcdefabcdef" }],
  findings: [],
  refused: null,
};

describe("importing several files", () => {
  it("reports every file as running, then each result in turn, and keeps going after a failure", async () => {
    const seen: string[][] = [];
    const run = async (path: string) => {
      if (path.endsWith("gone.zip")) throw { code: "archive_read_failed", message: "no such file" };
      return imported;
    };
    const outcomes = await importAll(["/a/gone.zip", "/a/frete.zip"], run, (o) => seen.push(o.map((x) => x.state)));
    expect(seen).toEqual([
      ["running", "running"],
      ["refused", "running"],
      ["refused", "imported"],
    ]);
    expect(outcomes[0]).toMatchObject({ code: "archive_read_failed", findings: [{ code: "archive_read_failed", file: "/a/gone.zip" }] });
    expect(outcomes[1]).toMatchObject({ name: "frete", version: 3 });
  });

  it("shows a refused package with the refusal code and its findings", async () => {
    const refused: ImportReport = {
      ...imported,
      name: null,
      installed: false,
      version: null,
      files: [],
      refused: "zip_path_traversal",
      findings: [{ code: "zip_path_traversal", severity: "error", file: "../x", line: null, column: null, message: "escapes the folder", hint: null }],
    };
    const [outcome] = await importAll(["/a/evil.zip"], async () => refused, () => {});
    expect(outcome).toMatchObject({ state: "refused", code: "zip_path_traversal", message: "escapes the folder" });
  });
});
