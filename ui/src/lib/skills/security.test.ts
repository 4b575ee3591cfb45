import { describe, expect, it } from "vitest";
import type { ScanFinding } from "../bindings/ScanFinding";
import { countScan, orderScan, scanLocation } from "./security";

function finding(over: Partial<ScanFinding>): ScanFinding {
  return {
    code: "link_shortener",
    category: "suspicious_links",
    severity: "warning",
    file: "SKILL.md",
    line: 1,
    column: 1,
    message: "m",
    hint: "h",
    ...over,
  };
}

describe("the security section", () => {
  it("lists critical findings first, then errors, then warnings, each in file order", () => {
    const ordered = orderScan([
      finding({ code: "w", severity: "warning" }),
      finding({ code: "e", severity: "error", file: "b.md" }),
      finding({ code: "c2", severity: "critical", line: 9 }),
      finding({ code: "c1", severity: "critical", line: 2 }),
    ]);
    expect(ordered.map((f) => f.code)).toEqual(["c1", "c2", "e", "w"]);
  });

  it("counts findings per severity", () => {
    const counts = countScan([finding({ severity: "critical" }), finding({}), finding({})]);
    expect(counts).toEqual({ critical: 1, error: 0, warning: 2 });
  });

  it("shows a whole-file finding by its file alone", () => {
    expect(scanLocation(finding({ line: 3, column: 7 }))).toBe("SKILL.md:3:7");
    expect(scanLocation(finding({ file: "assets/x.bin", line: null, column: null }))).toBe("assets/x.bin");
  });
});
