// What the skill view's *Install to…* dialog and its badge make of the install status: the
// worst state among the installed copies, the levels (user, each project) the dialog offers,
// and the agents checked to begin with at a level.
import type { Agent } from "$lib/bindings/Agent";
import type { InstallPlace } from "$lib/bindings/InstallPlace";
import type { InstallState } from "$lib/bindings/InstallState";
import type { InstallTarget } from "$lib/bindings/InstallTarget";

/** Every agent, in the order the dialog lists them (the order of `Agent::ALL` in Rust). */
export const AGENTS: Agent[] = ["claude", "agents", "codex", "github", "cursor"];

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

/** The place of `agent` at `level`, when Skillcase knows it. */
export function placeAt(places: InstallPlace[], agent: Agent, level: Level): InstallPlace | undefined {
  return places.find((p) => p.target.agent === agent && p.target.project === level);
}

/** The agents checked when the dialog opens at `level`: those holding a copy, else Claude Code. */
export function initialAgents(places: InstallPlace[], level: Level): Agent[] {
  const installed = AGENTS.filter((agent) => placeAt(places, agent, level)?.installed);
  return installed.length ? installed : ["claude"];
}

/** The targets to install into: every checked agent at `level`. */
export function targetsFor(agents: Agent[], level: Level): InstallTarget[] {
  return AGENTS.filter((a) => agents.includes(a)).map((agent) => ({ agent, project: level }));
}
