import { describe, expect, it } from "vitest";
import type { RemoteSkill } from "$lib/bindings/RemoteSkill";
import { countChanges, installAction, marksOf } from "./pull";

function skill(overrides: Partial<RemoteSkill> = {}): RemoteSkill {
  return {
    catalog: 1,
    catalog_url: "http://127.0.0.1:9/index.json",
    name: "frete",
    version: "1.0.0",
    description: "Calcula o frete.",
    digest: "abc",
    files: 2,
    bytes: 100,
    pulled_at: "2026-12-03T08:00:00.000Z",
    upstream_removed: false,
    revoked: false,
    installed: null,
    ...overrides,
  };
}

const fork = { name: "frete", forked_digest: "abc", forked_version: "1.0.0", update_available: false, locally_modified: false };

describe("countChanges", () => {
  it("counts the pull's skills by change", () => {
    const report = {
      catalog: 1,
      url: "u",
      files_downloaded: 3,
      bytes_downloaded: 10,
      skills: [
        { name: "a", change: "new" as const, version: null, downloaded: 2 },
        { name: "b", change: "new" as const, version: null, downloaded: 1 },
        { name: "c", change: "removed" as const, version: null, downloaded: 0 },
      ],
    };
    expect(countChanges(report)).toEqual({ new: 2, updated: 0, unchanged: 0, removed: 1, revoked: 0 });
  });
});

describe("marksOf", () => {
  it("puts an update first, then edits, then the installed mark", () => {
    expect(marksOf(skill({ installed: { ...fork, update_available: true, locally_modified: true } }))).toEqual([
      "update_available",
      "locally_modified",
      "installed",
    ]);
  });

  it("marks a skill gone upstream, revoked over removed", () => {
    expect(marksOf(skill({ upstream_removed: true }))).toEqual(["upstream_removed"]);
    expect(marksOf(skill({ upstream_removed: true, revoked: true }))).toEqual(["revoked"]);
  });
});

describe("installAction", () => {
  it("offers Install for a skill not installed, Update when upstream moved ahead, nothing otherwise", () => {
    expect(installAction(skill())).toBe("install");
    expect(installAction(skill({ installed: { ...fork, update_available: true } }))).toBe("update");
    expect(installAction(skill({ installed: fork }))).toBeNull();
  });

  it("offers nothing for a skill upstream removed", () => {
    expect(installAction(skill({ upstream_removed: true }))).toBeNull();
  });
});
