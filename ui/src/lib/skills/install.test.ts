import { describe, expect, it } from "vitest";
import type { InstallPlace } from "$lib/bindings/InstallPlace";
import { HOSTS } from "../../test/agents";
import { agentRows, initialRows, installBadge, levels, placeAt, rowMatches, targetsFor } from "./install";

function place(agent: string, project: string | null, state: InstallPlace["state"], agents = [agent]): InstallPlace {
  return { target: { agent, project }, agents, dir: `${project ?? "/home/ana"}/.${agent}/skills`, installed: state !== null, state, version: 1, drift: [] };
}

describe("installBadge", () => {
  it("is null when the skill is installed nowhere", () => {
    expect(installBadge([place("claude-code", null, null), place("codex", null, null)])).toBeNull();
  });

  it("counts the copies and shows drifted over outdated over in sync", () => {
    const places = [place("claude-code", null, "in_sync"), place("codex", "/p", "drifted"), place("universal", null, "outdated")];
    expect(installBadge(places)).toEqual({ count: 3, state: "drifted" });
  });

  it("says outdated when no copy drifted but one is behind its source", () => {
    expect(installBadge([place("claude-code", null, "in_sync"), place("cursor", null, "outdated")])).toEqual({ count: 2, state: "outdated" });
  });
});

describe("levels", () => {
  it("lists the user level first, then each project folder once, sorted", () => {
    const places = [place("claude-code", "/work/shop", null), place("claude-code", null, null), place("codex", "/work/app", null), place("universal", "/work/shop", null)];
    expect(levels(places)).toEqual([null, "/work/app", "/work/shop"]);
  });
});

describe("agentRows", () => {
  it("groups the agents that read the shared project folder into one row, detected rows first", () => {
    const rows = agentRows(HOSTS, "/work/shop");
    expect(rows.map((r) => r.folder)).toEqual([".agents/skills", ".claude/skills", ".windsurf/skills"]);
    expect(rows[0].agents.map((a) => a.id)).toEqual(["codex", "amp", "cursor", "github-copilot", "universal"]);
  });

  it("groups by the user folder at user level, where Amp keeps its own", () => {
    const rows = agentRows(HOSTS, null);
    expect(rows.map((r) => r.folder)).toEqual([".agents/skills", ".claude/skills", ".config/agents/skills", ".codeium/windsurf/skills"]);
  });

  it("finds a row by an agent's name, id or the folder", () => {
    const [shared, claude] = agentRows(HOSTS, "/p");
    expect(rowMatches(shared, "copilot")).toBe(true);
    expect(rowMatches(claude, "copilot")).toBe(false);
    expect(rowMatches(claude, ".claude")).toBe(true);
    expect(rowMatches(claude, "  ")).toBe(true);
  });
});

describe("initialRows and targetsFor", () => {
  it("ticks the rows holding a copy at the level, found through any agent of the folder", () => {
    const rows = agentRows(HOSTS, "/p");
    const places = [place("universal", "/p", "in_sync", ["universal", "codex", "cursor"]), place("claude-code", "/p", null)];
    expect(placeAt(places, rows[0], "/p")?.state).toBe("in_sync");
    expect(initialRows(rows, places, "/p")).toEqual([".agents/skills"]);
  });

  it("ticks the detected agents' rows when no copy exists yet", () => {
    expect(initialRows(agentRows(HOSTS, null), [], null)).toEqual([".agents/skills", ".claude/skills"]);
  });

  it("names each ticked row by its first agent, once per folder", () => {
    const rows = agentRows(HOSTS, "/p");
    expect(targetsFor(rows, [".windsurf/skills", ".agents/skills"], "/p")).toEqual([
      { agent: "codex", project: "/p" },
      { agent: "windsurf", project: "/p" },
    ]);
  });
});
