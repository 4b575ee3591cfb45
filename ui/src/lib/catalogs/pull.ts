// What the Catalog screen says about a pull and a remote skill: the changes counted by kind, and
// the marks a remote skill carries (its local copy, an update, upstream gone).
import type { PullChange } from "$lib/bindings/PullChange";
import type { PullReport } from "$lib/bindings/PullReport";
import type { RemoteSkill } from "$lib/bindings/RemoteSkill";

/** How many skills a pull found in each kind of change. */
export type PullCounts = Record<PullChange, number>;

/** The pull's skills counted by change. */
export function countChanges(report: PullReport): PullCounts {
  const counts: PullCounts = { new: 0, updated: 0, unchanged: 0, removed: 0, revoked: 0 };
  for (const skill of report.skills) counts[skill.change] += 1;
  return counts;
}

/** A remote skill's marks, most urgent first. */
export type SkillMark = "update_available" | "upstream_removed" | "revoked" | "locally_modified" | "installed";

/** The marks of `skill`: what a person acts on first (an update) comes first. */
export function marksOf(skill: RemoteSkill): SkillMark[] {
  const marks: SkillMark[] = [];
  if (skill.installed?.update_available) marks.push("update_available");
  if (skill.revoked) marks.push("revoked");
  else if (skill.upstream_removed) marks.push("upstream_removed");
  if (skill.installed?.locally_modified) marks.push("locally_modified");
  if (skill.installed) marks.push("installed");
  return marks;
}

/** Whether the Install button is offered, and as Install or Update. */
export function installAction(skill: RemoteSkill): "install" | "update" | null {
  if (skill.upstream_removed || skill.revoked) return null;
  if (!skill.installed) return "install";
  return skill.installed.update_available ? "update" : null;
}
