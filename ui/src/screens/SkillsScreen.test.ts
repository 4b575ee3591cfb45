import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/svelte";
import type { SkillQuery } from "$lib/bindings/SkillQuery";
import type { SkillSummary } from "$lib/bindings/SkillSummary";
import { setLocale } from "$lib/i18n/index.svelte";
import SkillsScreen from "./SkillsScreen.svelte";

const skill = (name: string, description: string, over: Partial<SkillSummary> = {}): SkillSummary => ({
  name,
  description,
  origin: "local",
  skill_type: "prompt",
  category: null,
  tags: [],
  validity: { errors: 0, warnings: 0 },
  hidden: false,
  live_version: 1,
  updated_at: "2026-11-30T12:00:00Z",
  ...over,
});

const library = vi.hoisted(() => ({
  skills: [] as SkillSummary[],
  changed: null as null | (() => void),
  dropped: null as null | ((d: unknown) => void),
  dirStatus: null as null | ((s: { available: boolean; message: string | null }) => void),
}));

vi.mock("$lib/bindings/commands", () => ({
  skillsList: vi.fn(async ({ query }: { query: SkillQuery }) => {
    const text = query.text?.toLowerCase() ?? "";
    const items = library.skills
      .filter((s) => !text || s.name.includes(text) || s.description.toLowerCase().includes(text))
      .filter((s) => query.validity !== "invalid" || s.validity.errors > 0);
    const offset = query.offset ?? 0;
    return { items: items.slice(offset, offset + (query.limit ?? 100)), total: items.length };
  }),
  skillsImport: vi.fn(async ({ path }: { path: string }) => ({
    name: "frete",
    installed: true,
    dry_run: false,
    replaced: false,
    version: { id: 4 },
    unchanged: false,
    files: [{ path: "SKILL.md", kind: "skill_md", size: 10, short_hash: "abcdefabcdef" }],
    findings: [],
    refused: path.includes("evil") ? "zip_path_traversal" : null,
    trigger_changes: [],
  })),
  skillsImportCheck: vi.fn(async ({ path }: { path: string }) => ({
    name: path.includes("evil") ? null : "frete",
    installed: false,
    dry_run: true,
    replaced: false,
    version: null,
    unchanged: false,
    files: [],
    findings: [],
    refused: path.includes("evil") ? "zip_path_traversal" : null,
    trigger_changes: [],
  })),
  skillsPickPackages: vi.fn(async () => []),
}));
vi.mock("$lib/backend", () => ({
  onSkillsChanged: vi.fn(async (handler: () => void) => ((library.changed = handler), () => {})),
  onScanProgress: vi.fn(async () => () => {}),
  onSkillsDirStatus: vi.fn(
    async (handler: (s: { available: boolean; message: string | null }) => void) => ((library.dirStatus = handler), () => {}),
  ),
  onFileDrop: vi.fn(async (handler: (d: unknown) => void) => ((library.dropped = handler), () => {})),
}));

const commands = await import("$lib/bindings/commands");

describe("the skills library", () => {
  beforeEach(() => {
    setLocale("en");
    vi.clearAllMocks();
    library.changed = null;
    library.dropped = null;
    library.dirStatus = null;
    library.skills = [
      skill("frete", "Prazos e preços de frete."),
      skill("trocas", "Troca e devolução.", { validity: { errors: 2, warnings: 0 } }),
      skill("boleto", "Segunda via de boleto.", { origin: "catalog", hidden: true }),
    ];
  });

  it("lists each skill with its badges and the count", async () => {
    render(SkillsScreen);
    await vi.waitFor(() => expect(screen.getByTestId("skill-count").textContent).toBe("3 skills"));
    const trocas = document.querySelector('[data-skill="trocas"]')!;
    expect(trocas.textContent).toContain("2 errors");
    expect(document.querySelector('[data-skill="boleto"]')!.textContent).toMatch(/catalog.*hidden/);
  });

  it("searches as you type, asking the backend once the typing pauses", async () => {
    render(SkillsScreen);
    await vi.waitFor(() => expect(screen.getByTestId("skill-count").textContent).toBe("3 skills"));
    const search = screen.getByTestId("skill-search");
    await fireEvent.input(search, { target: { value: "fre" } });
    await fireEvent.input(search, { target: { value: "frete" } });
    await vi.waitFor(() => expect(screen.getByTestId("skill-count").textContent).toBe("1 skill"));
    const texts = vi.mocked(commands.skillsList).mock.calls.map(([{ query }]) => query.text);
    expect(texts).toEqual([undefined, "frete"]);
  });

  it("sends the validity filter and says when nothing matches", async () => {
    library.skills = library.skills.filter((s) => s.validity.errors === 0);
    render(SkillsScreen);
    await vi.waitFor(() => expect(screen.getByTestId("skill-count").textContent).toBe("2 skills"));
    await fireEvent.change(screen.getByTestId("filter-validity"), { target: { value: "invalid" } });
    await vi.waitFor(() => expect(screen.getByTestId("skills-empty").textContent).toContain("No skill matches"));
    expect(vi.mocked(commands.skillsList).mock.calls.at(-1)?.[0].query.validity).toBe("invalid");
  });

  it("picks up a skill changed on disk from the change event, without a reload", async () => {
    render(SkillsScreen);
    await vi.waitFor(() => expect(screen.getByTestId("skill-count").textContent).toBe("3 skills"));
    library.skills.push(skill("novo", "Criada no editor externo."));
    library.changed?.();
    await vi.waitFor(() => expect(screen.getByTestId("skill-count").textContent).toBe("4 skills"));
  });

  it("imports every dropped file and reports each one", async () => {
    render(SkillsScreen);
    await vi.waitFor(() => expect(library.dropped).not.toBeNull());
    library.dropped?.({ type: "enter", paths: ["/a/frete.zip", "/a/evil.zip"] });
    await vi.waitFor(() => expect(screen.getByTestId("drop-overlay")).toBeTruthy());
    library.dropped?.({ type: "drop", paths: ["/a/frete.zip", "/a/evil.zip"] });
    await vi.waitFor(() => expect(screen.getByRole("status").textContent).toBe("2 of 2 done"));
    expect(screen.queryByTestId("drop-overlay")).toBeNull();
    // Each file is checked first; the refused one is never imported.
    expect(vi.mocked(commands.skillsImportCheck).mock.calls).toEqual([[{ path: "/a/frete.zip" }], [{ path: "/a/evil.zip" }]]);
    expect(vi.mocked(commands.skillsImport).mock.calls).toEqual([[{ path: "/a/frete.zip" }]]);
    expect(document.querySelector('[data-source="evil.zip"]')?.getAttribute("data-state")).toBe("refused");
  });

  it("says which folders the watcher cannot watch while the rest is listed, and clears it when they are", async () => {
    render(SkillsScreen);
    await vi.waitFor(() => expect(library.dirStatus).not.toBeNull());
    const note = "1 folder is not watched (cannot be watched: frete/private (Permission denied)); changes there are picked up by a rescan every 2 s instead";
    library.dirStatus?.({ available: true, message: note });
    await vi.waitFor(() => expect(screen.getByTestId("watch-note").textContent).toContain("frete/private"));
    expect(screen.getByTestId("watch-note").textContent).toMatch(/^Some folders are not watched: .*rescan every 2 s/);
    expect(screen.queryByRole("alert")).toBeNull();
    library.dirStatus?.({ available: true, message: null });
    await vi.waitFor(() => expect(screen.queryByTestId("watch-note")).toBeNull());
  });
});
