import { beforeEach, describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/svelte";
import type { AppInfo } from "$lib/bindings/AppInfo";
import { setLocale } from "$lib/i18n/index.svelte";
import StatusLine from "./StatusLine.svelte";

const shell = vi.hoisted(() => ({
  watch: null as string | null,
  dirStatus: null as null | (() => void),
}));

vi.mock("$lib/bindings/commands", () => ({
  appInfo: vi.fn(
    async (): Promise<AppInfo> => ({
      version: "0.1.0",
      skills_dir: "/home/ana/skills",
      data_dir: "/home/ana/.local/share/skillcase",
      database_path: "/home/ana/.local/share/skillcase/skillcase.sqlite3",
      api: { state: "listening", url: "http://127.0.0.1:7878" },
      skills_watch: shell.watch,
    }),
  ),
}));
vi.mock("$lib/backend", () => ({
  onSettingsChanged: vi.fn(async () => () => {}),
  onSkillsDirStatus: vi.fn(async (handler: () => void) => ((shell.dirStatus = handler), () => {})),
}));

describe("the status line", () => {
  beforeEach(() => {
    setLocale("en");
    shell.watch = null;
    shell.dirStatus = null;
  });

  it("says which folders are rescanned instead of watched, and drops it once all are watched", async () => {
    render(StatusLine);
    await vi.waitFor(() => expect(screen.getByTestId("status-line").textContent).toContain("/home/ana/skills"));
    expect(document.querySelector('[data-field="skills-watch"]')).toBeNull();

    shell.watch = "1 folder is not watched (cannot be watched: frete/private (Permission denied)); changes there are picked up by a rescan every 2 s instead";
    shell.dirStatus?.();
    await vi.waitFor(() =>
      expect(document.querySelector('[data-field="skills-watch"]')?.textContent).toContain("frete/private"),
    );
    expect(document.querySelector('[data-field="skills-watch"]')?.textContent).toMatch(/^\s*Rescanned, not watched: 1 folder/);

    shell.watch = null;
    shell.dirStatus?.();
    await vi.waitFor(() => expect(document.querySelector('[data-field="skills-watch"]')).toBeNull());
  });
});
