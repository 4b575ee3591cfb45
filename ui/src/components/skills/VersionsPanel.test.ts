import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/svelte";
import type { VersionInfo } from "$lib/bindings/VersionInfo";
import { setLocale } from "$lib/i18n/index.svelte";
import VersionsPanel from "./VersionsPanel.svelte";

const version = (id: number, source: VersionInfo["source"], live: boolean): VersionInfo => ({
  id,
  name: "frete",
  content_hash: `hash-${id}`,
  source,
  forked_from: null,
  created_at: "2026-11-30T12:00:00Z",
  validity: { errors: 0, warnings: 0 },
  files: 1,
  bytes: 100,
  live,
});

vi.mock("$lib/bindings/commands", () => ({
  // Database ids are shared by every skill: this skill's versions are 13, 14 and 20.
  skillVersions: vi.fn(async () => [version(20, "edit", true), version(14, "watch", false), version(13, "import", false)]),
  skillDiff: vi.fn(async () => []),
  skillRestore: vi.fn(),
}));

describe("VersionsPanel", () => {
  it("numbers a skill's versions from v1, oldest first, whatever their database ids", async () => {
    setLocale("en");
    render(VersionsPanel, { name: "frete", changeTick: 0, editable: true });

    const cells = await screen.findAllByText(/^v\d+$/, { selector: "td" });

    expect(cells.map((c) => c.textContent)).toEqual(["v3", "v2", "v1"]);
  });
});
