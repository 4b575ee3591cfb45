// Runs the imports of several dropped or chosen files one after another, reporting each as it
// starts and ends, so the report shows progress and one refusal never stops the others.
import type { ErrorBody } from "../bindings/ErrorBody";
import type { ImportReport } from "../bindings/ImportReport";
import { findingsOf, type ImportOutcome } from "./report";

/** The report's view of what the backend answered for `source`. */
export function outcomeOf(source: string, report: ImportReport): ImportOutcome {
  if (report.refused || !report.name) {
    return {
      source,
      state: "refused",
      code: report.refused ?? "import_refused",
      message: report.findings.find((f) => f.severity === "error")?.message ?? "",
      findings: report.findings,
    };
  }
  return {
    source,
    state: "imported",
    name: report.name,
    version: report.version?.id ?? 0,
    files: report.files,
    warnings: report.findings,
    changes: report.trigger_changes,
  };
}

/** True when importing would make a trigger case that passes now fail. */
export function breaksCases(report: ImportReport): boolean {
  return report.trigger_changes.some((c) => c.passed_before);
}

/** The report's view of a command that failed outright (unreadable file, engine down). */
export function outcomeOfError(source: string, error: ErrorBody): ImportOutcome {
  return { source, state: "refused", code: error.code, message: error.message, findings: findingsOf(error, source) };
}

/**
 * Imports `paths` in order with `run`, calling `update` with the whole list of outcomes after
 * each change (all `running` first, then each one as it finishes). With `check` (every check,
 * nothing written) a package that would make a passing trigger case fail is held, not imported:
 * its outcome names the cases, and the person imports it anyway or leaves it.
 */
export async function importAll(
  paths: readonly string[],
  run: (path: string) => Promise<ImportReport>,
  update: (outcomes: ImportOutcome[]) => void,
  check?: (path: string) => Promise<ImportReport>,
): Promise<ImportOutcome[]> {
  const outcomes: ImportOutcome[] = paths.map((source) => ({ source, state: "running" }));
  update([...outcomes]);
  for (const [i, path] of paths.entries()) {
    try {
      const checked = check ? await check(path) : null;
      if (checked && (checked.refused || !checked.name)) outcomes[i] = outcomeOf(path, checked);
      else if (checked && checked.name && breaksCases(checked)) outcomes[i] = { source: path, state: "held", name: checked.name, changes: checked.trigger_changes };
      else outcomes[i] = outcomeOf(path, await run(path));
    } catch (err) {
      outcomes[i] = outcomeOfError(path, err as ErrorBody);
    }
    update([...outcomes]);
  }
  return outcomes;
}
