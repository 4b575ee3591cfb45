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
  trigger_changes: [],
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

  it("holds a package that would make a passing trigger case fail, naming the case, and imports one that only fixes cases", async () => {
    const change = (passed_before: boolean) => ({
      skill: "frete",
      passed_before,
      now: { case: { query: "qual o frete?", should_trigger: true }, fired: null, keyword: null, required: [], others: [], failure: passed_before ? ("not_fired" as const) : null },
    });
    const runs: string[] = [];
    const run = async (path: string) => (runs.push(path), imported);
    const check = async (path: string) => ({ ...imported, dry_run: true, trigger_changes: [change(path.endsWith("breaks.zip"))] });
    const outcomes = await importAll(["/a/breaks.zip", "/a/fixes.zip"], run, () => {}, check);
    expect(outcomes[0]).toMatchObject({ state: "held", name: "frete", changes: [{ passed_before: true }] });
    expect(outcomes[1]).toMatchObject({ state: "imported", changes: [] });
    expect(runs).toEqual(["/a/fixes.zip"]);
  });

  it("reports a refusal found by the check without importing", async () => {
    const runs: string[] = [];
    const check = async () => ({ ...imported, name: null, refused: "import_refused" });
    const [outcome] = await importAll(["/a/bad.zip"], async (p) => (runs.push(p), imported), () => {}, check);
    expect(outcome.state).toBe("refused");
    expect(runs).toEqual([]);
  });
});
