import { describe, expect, it } from "vitest";
import type { InstallPlace } from "$lib/bindings/InstallPlace";
import { initialAgents, installBadge, levels, targetsFor } from "./install";

function place(agent: InstallPlace["target"]["agent"], project: string | null, state: InstallPlace["state"]): InstallPlace {
  return { target: { agent, project }, dir: `${project ?? "/home/ana"}/.${agent}/skills`, installed: state !== null, state, version: 1, drift: [] };
}

describe("installBadge", () => {
  it("is null when the skill is installed nowhere", () => {
    expect(installBadge([place("claude", null, null), place("codex", null, null)])).toBeNull();
  });

  it("counts the copies and shows drifted over outdated over in sync", () => {
    const places = [place("claude", null, "in_sync"), place("codex", "/p", "drifted"), place("agents", null, "outdated")];
    expect(installBadge(places)).toEqual({ count: 3, state: "drifted" });
  });

  it("says outdated when no copy drifted but one is behind its source", () => {
    expect(installBadge([place("claude", null, "in_sync"), place("cursor", null, "outdated")])).toEqual({ count: 2, state: "outdated" });
  });
});

describe("levels", () => {
  it("lists the user level first, then each project folder once, sorted", () => {
    const places = [place("claude", "/work/shop", null), place("claude", null, null), place("codex", "/work/app", null), place("agents", "/work/shop", null)];
    expect(levels(places)).toEqual([null, "/work/app", "/work/shop"]);
  });
});

describe("initialAgents", () => {
  it("checks the agents already holding a copy at that level", () => {
    const places = [place("claude", null, null), place("codex", null, "drifted"), place("cursor", null, "in_sync"), place("claude", "/p", "in_sync")];
    expect(initialAgents(places, null)).toEqual(["codex", "cursor"]);
  });

  it("checks Claude Code when nothing is installed at that level", () => {
    expect(initialAgents([place("codex", "/p", "in_sync")], null)).toEqual(["claude"]);
  });
});

describe("targetsFor", () => {
  it("makes one target per checked agent at the level, in the dialog's order", () => {
    expect(targetsFor(["cursor", "claude"], "/work/shop")).toEqual([
      { agent: "claude", project: "/work/shop" },
      { agent: "cursor", project: "/work/shop" },
    ]);
  });
});
