// The import report and the validation panel both show findings grouped by file, errors first,
// so the first thing a reader sees is what blocks the skill.
import type { CaseChange } from "../bindings/CaseChange";
import type { ErrorBody } from "../bindings/ErrorBody";
import type { FileKind } from "../bindings/FileKind";
import type { Finding } from "../bindings/Finding";

export type FindingGroup = {
  file: string;
  errors: number;
  warnings: number;
  /** Errors before warnings; then by line and column; then by code. */
  findings: Finding[];
};

/**
 * Groups `findings` by file. Files with errors come before files with only warnings; within
 * each of those two bands, files keep the order in which they first appear (the validator's
 * order: `SKILL.md` first, then the package's paths).
 */
export function groupFindings(findings: readonly Finding[]): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  for (const finding of findings) {
    let group = groups.get(finding.file);
    if (!group) {
      group = { file: finding.file, errors: 0, warnings: 0, findings: [] };
      groups.set(finding.file, group);
    }
    group.findings.push(finding);
    if (finding.severity === "error") group.errors++;
    else group.warnings++;
  }
  const ordered = [...groups.values()];
  for (const group of ordered) group.findings.sort(byFindingOrder);
  return [...ordered.filter((g) => g.errors > 0), ...ordered.filter((g) => g.errors === 0)];
}

function byFindingOrder(a: Finding, b: Finding): number {
  return (
    rank(a) - rank(b) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.column ?? 0) - (b.column ?? 0) ||
    a.code.localeCompare(b.code)
  );
}

function rank(f: Finding): number {
  return f.severity === "error" ? 0 : 1;
}

/** Counts of a list of findings, for badges ("3 errors", "1 warning"). */
export function tally(findings: readonly Finding[]): { errors: number; warnings: number } {
  let errors = 0;
  for (const f of findings) if (f.severity === "error") errors++;
  return { errors, warnings: findings.length - errors };
}

/** `SKILL.md:12:5`, `SKILL.md:12` or `SKILL.md` — where a finding points. */
export function location(f: Finding): string {
  if (f.line == null) return f.file;
  return f.column == null ? `${f.file}:${f.line}` : `${f.file}:${f.line}:${f.column}`;
}

/**
 * The findings a refused command carries: an import refusal (`import_refused`) or a refused
 * edit puts them in `details.findings`. Any other error becomes one finding with its own code,
 * so every refusal shows a code, a message and where it happened.
 */
export function findingsOf(error: ErrorBody, file: string): Finding[] {
  const listed = (error.details as { findings?: unknown } | undefined)?.findings;
  if (Array.isArray(listed) && listed.every(isFinding)) return listed;
  return [{ code: error.code, severity: "error", file, line: null, column: null, message: error.message, hint: null }];
}

function isFinding(value: unknown): value is Finding {
  const f = value as Finding;
  return typeof f === "object" && f !== null && typeof f.code === "string" && typeof f.file === "string";
}

/** The first 12 hex digits of a sha256: enough to tell files apart in a report. */
export function shortHash(sha256: string): string {
  return sha256.slice(0, 12);
}

/** A byte count for people: `812 B`, `4.2 KB`, `1.3 MB` (decimal units, at most one decimal, in `locale`). */
export function formatBytes(bytes: number, locale = "en"): string {
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  if (bytes < 1000) return `${number.format(bytes)} B`;
  if (bytes < 1_000_000) return `${number.format(bytes / 1000)} KB`;
  return `${number.format(bytes / 1_000_000)} MB`;
}

/** A file of an imported version, as the report lists it. */
export type ReportFile = { path: string; size: number; kind: FileKind; short_hash: string };

/** One dropped or chosen file's import, while it runs and after. */
export type ImportOutcome =
  | { source: string; state: "running" }
  | { source: string; state: "imported"; name: string; version: number; files: ReportFile[]; warnings: Finding[]; changes: CaseChange[] }
  | { source: string; state: "held"; name: string; changes: CaseChange[] }
  | { source: string; state: "refused"; code: string; message: string; findings: Finding[] };

/** The file name of a path (`/tmp/x/frete.zip` -> `frete.zip`), for report titles. */
export function baseName(path: string): string {
  return path.replace(/[/\\]+$/, "").split(/[/\\]/).pop() ?? path;
}
