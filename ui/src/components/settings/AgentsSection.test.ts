import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/svelte";
import AgentsSection from "./AgentsSection.svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import * as backend from "$lib/backend";
import * as commands from "$lib/bindings/commands";
import type { McpClient } from "$lib/bindings/McpClient";
import type { McpSetup } from "$lib/bindings/McpSetup";

vi.mock("$lib/bindings/commands", () => ({
  mcpSetup: vi.fn(),
  mcpClients: vi.fn(),
}));
vi.mock("$lib/backend", () => ({
  onMcpClientsChanged: vi.fn(),
  copyText: vi.fn(async () => {}),
}));

const mocked = { ...vi.mocked(backend), ...vi.mocked(commands) };

const SETUP: McpSetup = {
  command: "/opt/skillcase/skillcase",
  args: ["mcp"],
  env: { SKILLCASE_DATA_DIR: "/home/ana/skillcase data" },
  http_url: "http://127.0.0.1:7878/mcp",
};

function client(name: string, overrides: Partial<McpClient> = {}): McpClient {
  return { name, version: "2.1.7", transport: "stdio", connected_at: new Date(Date.now() - 3 * 60_000).toISOString(), ...overrides };
}

/** The handler the section gave `onMcpClientsChanged`: calling it is the event arriving. */
let announceChange: () => void;

async function renderSection(apiUrl = "http://127.0.0.1:7878") {
  const result = render(AgentsSection, { props: { apiUrl } });
  await screen.findByTestId("mcp-command");
  return result;
}

describe("Settings → Agents (MCP)", () => {
  beforeEach(() => {
    vi.clearAllMocks();
    setLocale("en");
    mocked.mcpSetup.mockResolvedValue(SETUP);
    mocked.mcpClients.mockResolvedValue([]);
    mocked.onMcpClientsChanged.mockImplementation(async (handler) => {
      announceChange = handler;
      return () => {};
    });
  });

  it("shows the stdio command with the data directory it needs, and copies exactly that line", async () => {
    await renderSection();
    const line = "SKILLCASE_DATA_DIR='/home/ana/skillcase data' /opt/skillcase/skillcase mcp";
    expect(screen.getByTestId("mcp-command").textContent).toBe(line);
    await fireEvent.click(screen.getByRole("button", { name: "Copy command" }));
    expect(mocked.copyText).toHaveBeenCalledWith(line);
    expect((await screen.findByRole("status")).textContent).toBe("Copied.");
  });

  it("shows the HTTP URL with how to authenticate, and copies it", async () => {
    await renderSection();
    expect(screen.getByTestId("mcp-url").textContent).toBe("http://127.0.0.1:7878/mcp");
    expect(screen.getByText("Send the Local API token as Authorization: Bearer <token>.")).toBeTruthy();
    await fireEvent.click(screen.getByRole("button", { name: "Copy URL" }));
    expect(mocked.copyText).toHaveBeenCalledWith("http://127.0.0.1:7878/mcp");
  });

  it("says there is no HTTP URL while the local API is down", async () => {
    mocked.mcpSetup.mockResolvedValue({ ...SETUP, http_url: null });
    await renderSection();
    expect(screen.queryByTestId("mcp-url")).toBeNull();
    expect(screen.getByTestId("mcp-url-down").textContent).toBe("Not available while the local API is not running.");
    expect(screen.queryByRole("button", { name: "Copy URL" })).toBeNull();
  });

  it("offers a ready mcpServers configuration to copy", async () => {
    await renderSection();
    await fireEvent.click(screen.getByRole("button", { name: "Copy configuration" }));
    const copied = JSON.parse(mocked.copyText.mock.calls[0][0]);
    expect(copied).toEqual({
      mcpServers: {
        skillcase: { command: "/opt/skillcase/skillcase", args: ["mcp"], env: { SKILLCASE_DATA_DIR: "/home/ana/skillcase data" } },
      },
    });
    expect(screen.getByTestId("mcp-config").textContent).toBe(mocked.copyText.mock.calls[0][0]);
  });

  it("says plainly that no agent is connected", async () => {
    await renderSection();
    const list = screen.getByTestId("mcp-clients");
    expect(await within(list).findByText("No agent connected.")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Connected now" })).toBeTruthy();
  });

  it("lists each connected client with its name, version, transport and since when", async () => {
    mocked.mcpClients.mockResolvedValue([
      client("claude-code"),
      client("Visual Studio Code", { version: "1.101.0", transport: "streamable_http" }),
    ]);
    await renderSection();
    const rows = await screen.findAllByRole("listitem");
    expect(rows.map((row) => row.textContent?.replace(/\s+/g, " ").trim())).toEqual([
      "claude-code 2.1.7 stdio connected 3 minutes ago",
      "Visual Studio Code 1.101.0 HTTP connected 3 minutes ago",
    ]);
    expect(screen.getByRole("heading", { name: "Connected now (2)" })).toBeTruthy();
  });

  it("re-reads the list when a client connects or goes away", async () => {
    await renderSection();
    await screen.findByText("No agent connected.");
    mocked.mcpClients.mockResolvedValue([client("codex", { version: "0.9.1" })]);
    announceChange();
    expect((await screen.findByRole("listitem")).textContent).toContain("codex");
    mocked.mcpClients.mockResolvedValue([]);
    announceChange();
    expect(await screen.findByText("No agent connected.")).toBeTruthy();
    expect(mocked.mcpClients).toHaveBeenCalledTimes(3);
  });

  it("shows the newest list when two reads answer out of order", async () => {
    await renderSection();
    await screen.findByText("No agent connected.");
    let answerOlder: (clients: McpClient[]) => void = () => {};
    mocked.mcpClients.mockReturnValueOnce(new Promise((resolve) => (answerOlder = resolve)));
    announceChange();
    mocked.mcpClients.mockResolvedValueOnce([]);
    announceChange();
    await vi.waitFor(() => expect(mocked.mcpClients).toHaveBeenCalledTimes(3));
    answerOlder([client("codex")]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole("listitem")).toBeNull();
    expect(screen.getByText("No agent connected.")).toBeTruthy();
  });

  it("reads the setup again when the local API moves to another port", async () => {
    const { rerender } = await renderSection();
    mocked.mcpSetup.mockResolvedValue({ ...SETUP, http_url: "http://127.0.0.1:7900/mcp" });
    await rerender({ apiUrl: "http://127.0.0.1:7900" });
    await vi.waitFor(() => expect(screen.getByTestId("mcp-url").textContent).toBe("http://127.0.0.1:7900/mcp"));
  });

  it("speaks Portuguese", async () => {
    setLocale("pt-BR");
    mocked.mcpClients.mockResolvedValue([client("claude-code")]);
    await renderSection();
    expect(screen.getByRole("heading", { name: "Agentes (MCP)" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Copiar comando" }).textContent?.trim()).toBe("Copiar");
    expect((await screen.findByRole("listitem")).textContent?.replace(/\s+/g, " ").trim()).toBe(
      "claude-code 2.1.7 stdio conectado há 3 minutos",
    );
    mocked.mcpClients.mockResolvedValue([]);
    announceChange();
    expect(await screen.findByText("Nenhum agente conectado.")).toBeTruthy();
  });

  it("says why the connected agents could not be read", async () => {
    mocked.mcpClients.mockRejectedValue({ code: "internal", message: "boom" });
    await renderSection();
    expect((await within(screen.getByTestId("mcp-clients")).findByRole("alert")).textContent).toBe(
      "The connected agents could not be read: boom",
    );
  });

  it("says why the setup could not be read, and still lists the clients", async () => {
    mocked.mcpSetup.mockRejectedValue({ code: "internal", message: "no executable" });
    render(AgentsSection, { props: { apiUrl: "http://127.0.0.1:7878" } });
    expect((await screen.findByText("How agents connect could not be read: no executable")).getAttribute("role")).toBe("alert");
    expect(await screen.findByText("No agent connected.")).toBeTruthy();
  });
});
