import { describe, expect, it } from "vitest";
import type { Finding } from "../bindings/Finding";
import { findingsOf, formatBytes, groupFindings, location, shortHash, tally } from "./report";

const finding = (file: string, code: string, severity: Finding["severity"], line: number | null = null): Finding => ({
  code,
  severity,
  file,
  line,
  column: null,
  message: `${code} message`,
  hint: null,
});

describe("finding groups", () => {
  it("groups by file with files that have errors first", () => {
    const groups = groupFindings([
      finding("SKILL.md", "body_too_long", "warning", 1),
      finding("references/a.md", "reference_missing", "error", 3),
      finding("SKILL.md", "name_mismatch", "error", 2),
      finding("assets/x.exe", "asset_extension_refused", "warning"),
    ]);
    expect(groups.map((g) => g.file)).toEqual(["SKILL.md", "references/a.md", "assets/x.exe"]);
    expect(groups.map((g) => [g.errors, g.warnings])).toEqual([[1, 1], [1, 0], [0, 1]]);
  });

  it("puts errors before warnings inside a file, then orders by line", () => {
    const [group] = groupFindings([
      finding("SKILL.md", "w_late", "warning", 1),
      finding("SKILL.md", "e_late", "error", 9),
      finding("SKILL.md", "e_early", "error", 2),
    ]);
    expect(group.findings.map((f) => f.code)).toEqual(["e_early", "e_late", "w_late"]);
  });

  it("counts errors and warnings", () => {
    expect(tally([finding("a", "x", "error"), finding("a", "y", "warning"), finding("b", "z", "warning")])).toEqual({
      errors: 1,
      warnings: 2,
    });
  });

  it("writes the location with as much precision as the finding has", () => {
    expect(location(finding("SKILL.md", "x", "error"))).toBe("SKILL.md");
    expect(location(finding("SKILL.md", "x", "error", 4))).toBe("SKILL.md:4");
    expect(location({ ...finding("SKILL.md", "x", "error", 4), column: 7 })).toBe("SKILL.md:4:7");
  });
});

describe("refusals", () => {
  it("reads the findings an import refusal carries", () => {
    const listed = [finding("../evil.md", "zip_path_traversal", "error")];
    const refusal = { code: "import_refused", message: "the archive was refused", details: { findings: listed } };
    expect(findingsOf(refusal, "evil.zip")).toEqual(listed);
  });

  it("turns any other error into one finding on the file, keeping its code", () => {
    const [only] = findingsOf({ code: "archive_read_failed", message: "no such file" }, "gone.zip");
    expect(only).toMatchObject({ code: "archive_read_failed", severity: "error", file: "gone.zip", message: "no such file" });
  });
});

describe("numbers for people", () => {
  it("shortens a sha256 to twelve digits", () => {
    expect(shortHash("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")).toBe("9f86d081884c");
  });

  it("writes sizes in decimal units in the reader's language", () => {
    expect(formatBytes(812)).toBe("812 B");
    expect(formatBytes(4230)).toBe("4.2 KB");
    expect(formatBytes(4230, "pt-BR")).toBe("4,2 KB");
    expect(formatBytes(1_300_000)).toBe("1.3 MB");
  });
});
