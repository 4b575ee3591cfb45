import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/svelte";
import type { InstallPlace } from "$lib/bindings/InstallPlace";
import * as commands from "$lib/bindings/commands";
import { setLocale } from "$lib/i18n/index.svelte";
import { HOSTS } from "../../test/agents";
import InstallDialog from "./InstallDialog.svelte";

vi.mock("$lib/bindings/commands", () => ({
  skillInstall: vi.fn(),
  installAgents: vi.fn(),
  pickFolder: vi.fn(async () => null),
}));
vi.mock("$lib/backend", () => ({
  hasCode: (err: { code: string }, ...codes: string[]) => codes.includes(err.code),
}));

const SHARED = ["universal", "codex", "cursor", "github-copilot"];

const at = (agent: string, dir: string, state: InstallPlace["state"], agents = [agent]): InstallPlace => ({
  target: { agent, project: null },
  agents,
  dir,
  installed: state !== null,
  state,
  version: 3,
  drift: state === "drifted" ? [{ path: "references/tabela.md", kind: "modified" }] : [],
});

const PLACES: InstallPlace[] = [
  at("claude-code", "/home/ana/.claude/skills", null),
  at("universal", "/home/ana/.agents/skills", "drifted", SHARED),
  at("windsurf", "/home/ana/.codeium/windsurf/skills", null),
];

async function open(places = PLACES) {
  setLocale("en");
  vi.mocked(commands.installAgents).mockResolvedValue(HOSTS);
  const oninstalled = vi.fn();
  render(InstallDialog, { name: "frete", places, onclose: vi.fn(), oninstalled });
  await screen.findAllByTestId("install-row");
  return oninstalled;
}

const row = (name: RegExp) => screen.getByRole("checkbox", { name }) as HTMLInputElement;

describe("InstallDialog", () => {
  it("lists this computer's agents, the shared folder as one row, and ticks the one holding a copy", async () => {
    await open();
    const rows = screen.getAllByTestId("install-row");
    expect(rows.map((r) => r.getAttribute("data-folder"))).toEqual([".agents/skills", ".claude/skills"]);
    expect(rows[0].textContent).toContain("Codex, Cursor, GitHub Copilot, Universal");
    expect(row(/Codex/).checked).toBe(true);
    expect(row(/Claude Code/).checked).toBe(false);
    expect(screen.getByText("Changed: references/tabela.md")).toBeTruthy();
  });

  it("shows every other agent's folder on request, with a filter", async () => {
    await open();
    await fireEvent.click(screen.getByRole("button", { name: "Show 2 more folders (every known agent)" }));
    expect(screen.getAllByTestId("install-row")).toHaveLength(4);
    await fireEvent.input(screen.getByRole("searchbox", { name: "Filter agents by name or folder" }), { target: { value: "wind" } });
    const rows = screen.getAllByTestId("install-row");
    expect(rows.map((r) => r.getAttribute("data-folder"))).toEqual([".codeium/windsurf/skills"]);
    expect(within(rows[0]).getByText("/home/ana/.codeium/windsurf/skills")).toBeTruthy();
  });

  it("installs once per ticked folder at the chosen level", async () => {
    vi.mocked(commands.skillInstall).mockResolvedValueOnce({ name: "frete", version: 3, source: { kind: "folder", path: "/x" }, files: 2, places: [] });
    const oninstalled = await open();
    await fireEvent.click(row(/Claude Code/));
    await fireEvent.click(screen.getByRole("button", { name: "Install" }));
    await vi.waitFor(() => expect(oninstalled).toHaveBeenCalled());
    expect(vi.mocked(commands.skillInstall)).toHaveBeenLastCalledWith({
      name: "frete",
      targets: [
        { agent: "codex", project: null },
        { agent: "claude-code", project: null },
      ],
      force: false,
    });
  });

  it("offers to replace only after a conflict, and then installs with force", async () => {
    vi.mocked(commands.skillInstall)
      .mockRejectedValueOnce({ code: "install_conflict", message: "taken; pass --force", details: { target: "/home/ana/.agents/skills", name: "frete" } })
      .mockResolvedValueOnce({ name: "frete", version: 3, source: { kind: "folder", path: "/x" }, files: 2, places: [] });
    await open();
    expect(screen.queryByRole("checkbox", { name: /Replace folders/ })).toBeNull();
    await fireEvent.click(screen.getByRole("button", { name: "Install" }));
    const replace = await screen.findByRole("checkbox", { name: /Replace folders/ });
    expect(screen.getByRole("alert").textContent?.trim()).toBe(
      "/home/ana/.agents/skills already holds a folder frete that Skillcase did not install. Tick the box above to replace it. (install_conflict)",
    );
    await fireEvent.click(replace);
    await fireEvent.click(screen.getByRole("button", { name: "Install" }));
    await vi.waitFor(() => expect(vi.mocked(commands.skillInstall)).toHaveBeenLastCalledWith({ name: "frete", targets: [{ agent: "codex", project: null }], force: true }));
  });
});
