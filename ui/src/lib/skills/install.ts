// What the skill view's *Install to…* dialog and its badge make of the agents table and the
// install status: the worst state among the installed copies, the levels (user, each project)
// the dialog offers, and the rows it lists — one per skills folder at a level, the agents that
// read it together (most read the standard's `.agents/skills`), detected agents first.
import type { AgentHost } from "$lib/bindings/AgentHost";
import type { InstallPlace } from "$lib/bindings/InstallPlace";
import type { InstallState } from "$lib/bindings/InstallState";
import type { InstallTarget } from "$lib/bindings/InstallTarget";

/** The standard's shared skills folder, in a project and under the home folder. */
export const SHARED_FOLDER = ".agents/skills";

/** The badge: how many copies exist and the state that needs a person most. */
export type InstallBadge = { count: number; state: InstallState } | null;

const URGENCY: InstallState[] = ["in_sync", "outdated", "drifted"];

/** The badge for `places`: `null` when the skill is installed nowhere. */
export function installBadge(places: InstallPlace[]): InstallBadge {
  const installed = places.filter((p) => p.installed && p.state);
  if (installed.length === 0) return null;
  const state = installed
    .map((p) => p.state as InstallState)
    .reduce((worst, s) => (URGENCY.indexOf(s) > URGENCY.indexOf(worst) ? s : worst), "in_sync" as InstallState);
  return { count: installed.length, state };
}

/** A level is the user's home (`null`) or a project folder. */
export type Level = string | null;

/** The levels known from `places`: the user's first, then each project folder, in order. */
export function levels(places: InstallPlace[]): Level[] {
  const projects = [...new Set(places.map((p) => p.target.project).filter((p): p is string => p !== null))];
  const user = places.some((p) => p.target.project === null) ? [null] : [];
  return [...user, ...projects.sort()];
}

/** One row of the dialog: a skills folder at a level and every agent that reads it. */
export type AgentRow = {
  /** The folder relative to the home or project folder: the row's key. */
  folder: string;
  /** The agents reading it, detected ones first; the first stands for the row in a target. */
  agents: AgentHost[];
  /** Whether one of its agents is installed on this machine. */
  detected: boolean;
};

/** The folder `agent` reads at `level` (`null` when it reads none there). */
export function folderOf(agent: AgentHost, level: Level): string | null {
  return level === null ? agent.user_folder : agent.project_folder;
}

/**
 * The rows at `level`: one per folder, the rows with a detected agent first, the shared folder
 * first among equals, then by the first agent's name.
 */
export function agentRows(agents: AgentHost[], level: Level): AgentRow[] {
  const byFolder = new Map<string, AgentHost[]>();
  for (const agent of agents) {
    const folder = folderOf(agent, level);
    if (folder !== null) byFolder.set(folder, [...(byFolder.get(folder) ?? []), agent]);
  }
  const rows = [...byFolder.entries()].map(([folder, members]) => ({
    folder,
    agents: [...members].sort((a, b) => Number(b.detected) - Number(a.detected)),
    detected: members.some((a) => a.detected),
  }));
  const rank = (row: AgentRow) => (row.detected ? 0 : 2) + (row.folder === SHARED_FOLDER ? 0 : 1);
  return rows.sort((a, b) => rank(a) - rank(b) || a.agents[0].name.localeCompare(b.agents[0].name));
}

/** Whether `row` matches the filter text (an agent's name or id, or the folder). */
export function rowMatches(row: AgentRow, filter: string): boolean {
  const wanted = filter.trim().toLowerCase();
  if (!wanted) return true;
  return row.folder.toLowerCase().includes(wanted) || row.agents.some((a) => a.name.toLowerCase().includes(wanted) || a.id.includes(wanted));
}

/** The place of `row` at `level`, when Skillcase knows it. */
export function placeAt(places: InstallPlace[], row: AgentRow, level: Level): InstallPlace | undefined {
  const ids = new Set(row.agents.map((a) => a.id));
  return places.find((p) => p.target.project === level && p.agents.some((id) => ids.has(id)));
}

/** The rows ticked when the dialog opens at `level`: those holding a copy, else the detected ones, else the shared folder. */
export function initialRows(rows: AgentRow[], places: InstallPlace[], level: Level): string[] {
  const installed = rows.filter((row) => placeAt(places, row, level)?.installed).map((r) => r.folder);
  if (installed.length) return installed;
  const detected = rows.filter((r) => r.detected).map((r) => r.folder);
  return detected.length ? detected : rows.filter((r) => r.folder === SHARED_FOLDER).map((r) => r.folder);
}

/** The targets to install into: one per ticked row at `level`, named by its first agent. */
export function targetsFor(rows: AgentRow[], ticked: string[], level: Level): InstallTarget[] {
  return rows.filter((r) => ticked.includes(r.folder)).map((row) => ({ agent: row.agents[0].id, project: level }));
}
