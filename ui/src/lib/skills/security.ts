// The Validation tab's Security section without DOM: the scan's findings ordered most severe
// first (then by file, line and column) and counted per severity for the section's heading.
import type { ScanFinding } from "../bindings/ScanFinding";
import type { ScanSeverity } from "../bindings/ScanSeverity";

const RANK: Record<ScanSeverity, number> = { critical: 0, error: 1, warning: 2 };

/** The findings most severe first, then in file order. */
export function orderScan(findings: ScanFinding[]): ScanFinding[] {
  return [...findings].sort(
    (a, b) =>
      RANK[a.severity] - RANK[b.severity] ||
      a.file.localeCompare(b.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0),
  );
}

/** How many findings of each severity. */
export function countScan(findings: ScanFinding[]): Record<ScanSeverity, number> {
  const counts: Record<ScanSeverity, number> = { critical: 0, error: 0, warning: 0 };
  for (const f of findings) counts[f.severity] += 1;
  return counts;
}

/** `file:line:column`, or the file alone for a whole-file finding. */
export function scanLocation(f: ScanFinding): string {
  if (f.line == null) return f.file;
  return f.column == null ? `${f.file}:${f.line}` : `${f.file}:${f.line}:${f.column}`;
}
