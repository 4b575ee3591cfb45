import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/svelte";
import type { InstallPlace } from "$lib/bindings/InstallPlace";
import * as commands from "$lib/bindings/commands";
import { setLocale } from "$lib/i18n/index.svelte";
import InstallDialog from "./InstallDialog.svelte";

vi.mock("$lib/bindings/commands", () => ({
  skillInstall: vi.fn(),
  pickFolder: vi.fn(async () => null),
}));
vi.mock("$lib/backend", () => ({
  hasCode: (err: { code: string }, ...codes: string[]) => codes.includes(err.code),
}));

const at = (agent: InstallPlace["target"]["agent"], state: InstallPlace["state"]): InstallPlace => ({
  target: { agent, project: null },
  dir: `/home/ana/.${agent}/skills`,
  installed: state !== null,
  state,
  version: 3,
  drift: state === "drifted" ? [{ path: "references/tabela.md", kind: "modified" }] : [],
});

const PLACES: InstallPlace[] = [at("claude", null), at("agents", null), at("codex", "drifted"), at("github", null), at("cursor", null)];

function open() {
  setLocale("en");
  const oninstalled = vi.fn();
  render(InstallDialog, { name: "frete", places: PLACES, onclose: vi.fn(), oninstalled });
  return oninstalled;
}

describe("InstallDialog", () => {
  it("ticks the agents already holding a copy and names the files changed by hand", () => {
    open();
    expect((screen.getByRole("checkbox", { name: /OpenAI Codex/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole("checkbox", { name: /Claude Code/ }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText("Changed: references/tabela.md")).toBeTruthy();
  });

  it("installs into the ticked agents at the chosen level", async () => {
    vi.mocked(commands.skillInstall).mockResolvedValueOnce({ name: "frete", version: 3, source: { kind: "folder", path: "/x" }, files: 2, places: [] });
    const oninstalled = open();
    await fireEvent.click(screen.getByRole("checkbox", { name: /Cursor/ }));
    await fireEvent.click(screen.getByRole("button", { name: "Install" }));
    await vi.waitFor(() => expect(oninstalled).toHaveBeenCalled());
    expect(vi.mocked(commands.skillInstall)).toHaveBeenLastCalledWith({
      name: "frete",
      targets: [
        { agent: "codex", project: null },
        { agent: "cursor", project: null },
      ],
      force: false,
    });
  });

  it("offers to replace only after a conflict, and then installs with force", async () => {
    vi.mocked(commands.skillInstall)
      .mockRejectedValueOnce({ code: "install_conflict", message: "taken; pass --force", details: { target: "/home/ana/.codex/skills", name: "frete" } })
      .mockResolvedValueOnce({ name: "frete", version: 3, source: { kind: "folder", path: "/x" }, files: 2, places: [] });
    open();
    expect(screen.queryByRole("checkbox", { name: /Replace folders/ })).toBeNull();
    await fireEvent.click(screen.getByRole("button", { name: "Install" }));
    const replace = await screen.findByRole("checkbox", { name: /Replace folders/ });
    expect(screen.getByRole("alert").textContent?.trim()).toBe(
      "/home/ana/.codex/skills already holds a folder frete that Skillcase did not install. Tick the box above to replace it. (install_conflict)",
    );
    await fireEvent.click(replace);
    await fireEvent.click(screen.getByRole("button", { name: "Install" }));
    await vi.waitFor(() => expect(vi.mocked(commands.skillInstall)).toHaveBeenLastCalledWith({ name: "frete", targets: [{ agent: "codex", project: null }], force: true }));
  });
});
