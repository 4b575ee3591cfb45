// Trigger tests as the window words them: what a case expects, what happened, the share figures,
// and the change list the editor shows. No DOM, so Vitest pins it.
import type { CaseChange } from "../bindings/CaseChange";
import type { CaseResult } from "../bindings/CaseResult";
import type { Conflict } from "../bindings/Conflict";
import type { TriggerCase } from "../bindings/TriggerCase";
import { t } from "../i18n/index.svelte";

/** `fires`, `near miss` or `does not fire`, plus the references the case requires. */
export function expectedText(c: TriggerCase): string {
  const how = !c.should_trigger ? t("triggers.expect.not") : c.kind === "probe" ? t("triggers.expect.probe") : t("triggers.expect.hard");
  return c.required_refs ? `${how} · ${t("triggers.expect.refs", { refs: c.required_refs.join(", ") || "—" })}` : how;
}

/** How the skill actually answered: the firing with its keyword, the route, the other skills fired. */
export function actualText(r: CaseResult): string {
  const parts = [
    r.fired === "hard"
      ? t("triggers.actual.hard", { keyword: r.keyword ?? "" })
      : r.fired === "probe"
        ? t("triggers.actual.probe", { keyword: r.keyword ?? "" })
        : t("triggers.actual.none"),
  ];
  if (r.fired && r.required.length) parts.push(t("triggers.actual.route", { refs: r.required.join(", ") }));
  if (r.others.length) parts.push(t("triggers.actual.others", { skills: r.others.join(", ") }));
  return parts.join(" · ");
}

/** A share as a whole percentage, or "n/a" when there was nothing to measure. */
export function percent(share: number | null): string {
  return share === null ? t("triggers.notApplicable") : `${Math.round(share * 100)} %`;
}

/** One line per conflict: the skills involved, in the words of its kind. */
export function conflictText(c: Conflict): string {
  const skills = c.skills.join(", ");
  return c.kind === "fires_many" ? t("triggers.conflicts.fires_many", { skills }) : t("triggers.conflicts.taken", { owner: c.owner, skills });
}

/** The cases with the failing ones first, each group in its original order. */
export function failuresFirst(cases: CaseResult[]): CaseResult[] {
  return [...cases.filter((c) => c.failure !== null), ...cases.filter((c) => c.failure === null)];
}

/** The changes an edit makes, cases it breaks first. */
export function orderedChanges(changes: CaseChange[]): CaseChange[] {
  return [...changes].sort((a, b) => Number(b.passed_before) - Number(a.passed_before));
}

/** The case a one-click add makes of a message: it must fire, or must not. */
export function quickCase(query: string, mustFire: boolean): TriggerCase {
  return { query: query.trim(), should_trigger: mustFire };
}
