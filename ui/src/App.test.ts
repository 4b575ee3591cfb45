import { describe, expect, it, vi, beforeEach } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/svelte";
import App from "./App.svelte";
import { setLocale } from "$lib/i18n/index.svelte";

vi.mock("$lib/bindings/commands", () => ({
  casesCounts: vi.fn(async () => ({ waiting_on_you: 3, waiting_on_customer: 1, closed: 7, unread: 2 })),
  casesList: vi.fn(async () => ({
    items: [],
    total: 0,
    offset: 0,
    limit: 100,
    counts: { waiting_on_you: 3, waiting_on_customer: 1, closed: 7, unread: 2 },
  })),
  outboxStatus: vi.fn(async () => ({ health: "ok", pending: 0, stuck: 0, oldest_pending_since: null, last_error: null })),
  caseGet: vi.fn(),
  skillsList: vi.fn(async () => ({ items: [], total: 0 })),
  catalogList: vi.fn(async () => []),
  appInfo: vi.fn(async () => ({
    version: "0.1.0",
    skills_dir: "/repo/skills-examples",
    data_dir: "/tmp/skillcase-test",
    database_path: "/tmp/skillcase-test/skillcase.sqlite3",
    api: { state: "listening", url: "http://127.0.0.1:7878" },
  })),
}));
vi.mock("$lib/backend", () => ({
  onCaseOpened: vi.fn(async () => () => {}),
  onCaseChanged: vi.fn(async () => () => {}),
  onPromiseOverdue: vi.fn(async () => () => {}),
  onEventsLagged: vi.fn(async () => () => {}),
  onSkillsChanged: vi.fn(async () => () => {}),
  onScanProgress: vi.fn(async () => () => {}),
  onSkillsDirStatus: vi.fn(async () => () => {}),
  onFileDrop: vi.fn(async () => () => {}),
  onSettingsChanged: vi.fn(async () => () => {}),
}));

describe("the shell", () => {
  beforeEach(() => setLocale("en"));

  it("lists the four areas in the sidebar", () => {
    render(App);
    const nav = screen.getByRole("navigation");
    const labels = within(nav).getAllByRole("button").map((b) => b.textContent?.trim().replace(/\d+$/, ""));
    expect(labels).toEqual(["Skills", "Catalog", "Cases", "Settings"]);
  });

  it("opens on Skills and marks it as the current page", () => {
    render(App);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Skills");
    expect(screen.getByRole("button", { name: "Skills" }).getAttribute("aria-current")).toBe("page");
  });

  it("switches screens when a navigation item is clicked", async () => {
    render(App);
    await fireEvent.click(screen.getByRole("button", { name: /^Catalog/ }));
    // Screens other than the first load on first use (under Vitest, compiled then).
    const loaded = { timeout: 15_000 };
    expect(await screen.findByRole("heading", { level: 1, name: "Catalog" }, loaded)).toBeTruthy();
    await fireEvent.click(screen.getByRole("button", { name: /^Cases/ }));
    expect(await screen.findByRole("heading", { level: 1, name: "Cases" }, loaded)).toBeTruthy();
  });

  it("badges the Cases item with the unread cases waiting on the person", async () => {
    render(App);
    await vi.waitFor(() => expect(screen.getByTestId("cases-badge").textContent).toBe("2"));
  });

  it("shows the version and directories reported by the backend in the status line", async () => {
    render(App);
    const line = screen.getByTestId("status-line");
    await vi.waitFor(() => expect(line.textContent).toContain("/tmp/skillcase-test/skillcase.sqlite3"));
    expect(line.textContent).toContain("Skillcase 0.1.0");
    expect(line.textContent).toContain("/repo/skills-examples");
    expect(line.textContent).toContain("Agent API http://127.0.0.1:7878");
  });

  it("speaks Brazilian Portuguese when the locale is pt-BR", () => {
    setLocale("pt-BR");
    render(App);
    expect(screen.getByRole("button", { name: /^Casos/ })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Configurações" })).toBeTruthy();
  });
});
