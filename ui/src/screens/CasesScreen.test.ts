import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import CasesScreen from "./CasesScreen.svelte";

function item(n: number, unread = false) {
  return {
    case: {
      id: `case-${n}`,
      number: 1000 + n,
      conversation_id: `wa-${n}`,
      lead: { name: `Lead ${n}` },
      status: "awaiting_human",
      title: `Refund ${n}`,
      summary: "Charged twice.",
      context: [],
      source: n === 3 ? "guardrail_autofallback" : "agent",
      reason: n === 3 ? "guardrail_autofallback" : n === 1 ? "policy_restriction" : "not_stated",
      waiting_since: "2026-11-30T10:00:00.000Z",
      opened_at: "2026-11-30T10:00:00.000Z",
      updated_at: "2026-11-30T10:00:00.000Z",
      closed_at: null,
      sla: { first_reply: null, resolution: null, paused_since: null, next_due_at: null },
    },
    latest_delivery: n === 2 ? "dead" : null,
    unread,
  };
}

const casesList = vi.fn();
const caseGet = vi.fn();
const caseHistoryBreaks = vi.fn();
const casesReport = vi.fn();
vi.mock("$lib/bindings/commands", () => ({
  casesList: (...a: unknown[]) => casesList(...a),
  casesReport: (...a: unknown[]) => casesReport(...a),
  caseGet: (...a: unknown[]) => caseGet(...a),
  caseHistoryBreaks: (...a: unknown[]) => caseHistoryBreaks(...a),
  caseMarkRead: vi.fn(async () => {}),
  casesMe: vi.fn(async () => "Ana Souza"),
  outboxStatus: vi.fn(async () => ({ health: "ok", pending: 0, stuck: 0, oldest_pending_since: null, last_error: null })),
  caseReply: vi.fn(),
  caseHoldReply: vi.fn(async () => ({ person: "Ana Souza", until: "2999-01-01T00:00:00.000Z" })),
  caseTake: vi.fn(),
  deliveryRetry: vi.fn(),
}));
vi.mock("$lib/backend", () => ({
  hasCode: (err: { code: string }, ...codes: string[]) => codes.includes(err.code),
}));

beforeEach(() => {
  setLocale("en");
  casesList.mockReset();
  casesList.mockResolvedValue({
    items: [item(1, true), item(2), item(3)],
    total: 3,
    offset: 0,
    limit: 100,
    counts: { waiting_on_you: 3, waiting_on_customer: 0, closed: 0, unread: 1 },
  });
  casesReport.mockReset();
  casesReport.mockImplementation(async ({ range }: { range: { from: string; to: string } }) => ({
    range,
    weeks: [
      { week: "2026-11-23", total: 2, by_reason: [{ reason: "policy_restriction", cases: 2 }] },
      { week: "2026-11-30", total: 1, by_reason: [{ reason: "tool_failure", cases: 1 }] },
    ],
    reasons: [
      { reason: "policy_restriction", cases: 2, replied: 2, median_first_reply_secs: 2700, reopened: 1 },
      { reason: "tool_failure", cases: 1, replied: 0, median_first_reply_secs: null, reopened: 0 },
    ],
    overall: { cases: 3, replied: 2, median_first_reply_secs: 2700, reopened: 1 },
  }));
  caseGet.mockImplementation(async ({ id }: { id: string }) => ({ case: item(Number(id.slice(5))).case, events: [], deliveries: [], promises: [] }));
  caseHistoryBreaks.mockReset().mockResolvedValue([]);
});

const rows = () => [...document.querySelectorAll(".row")] as HTMLElement[];
const selectedNumber = () => document.querySelector('.row[aria-selected="true"]')?.getAttribute("data-case-number");

describe("the cases screen", () => {
  it("lists the tab's cases with unread, delivery-problem and guardrail marks", async () => {
    render(CasesScreen);
    await vi.waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows().map((r) => r.dataset.unread)).toEqual(["true", "false", "false"]);
    expect(rows()[1].querySelector("[data-delivery-problem]")?.textContent).toBe("Reply not delivered");
    expect(rows()[2].querySelector('[data-source="guardrail"]')).not.toBeNull();
    expect(casesList).toHaveBeenCalledWith({ filter: expect.objectContaining({ tab: "waiting_on_you", offset: 0, limit: 100 }) });
  });

  it("moves with j and k and opens with Enter", async () => {
    render(CasesScreen);
    await vi.waitFor(() => expect(rows()).toHaveLength(3));
    expect(selectedNumber()).toBe("1001");
    await fireEvent.keyDown(window, { key: "j" });
    await fireEvent.keyDown(window, { key: "j" });
    await fireEvent.keyDown(window, { key: "k" });
    expect(selectedNumber()).toBe("1002");
    await fireEvent.keyDown(window, { key: "Enter" });
    await vi.waitFor(() => expect(screen.getByTestId("case-title").textContent).toBe("Refund 2"));
    await fireEvent.keyDown(window, { key: "Escape" });
    await vi.waitFor(() => expect(screen.queryByTestId("case-detail")).toBeNull());
  });

  it("warns on a case whose history was changed outside Skillcase, naming the event", async () => {
    caseHistoryBreaks.mockResolvedValue([
      { case_id: "case-2", number: 1002, seq: 41, problem: "the event was changed after it was written" },
    ]);
    render(CasesScreen);
    await vi.waitFor(() => expect(rows()).toHaveLength(3));
    await fireEvent.keyDown(window, { key: "j" });
    await fireEvent.keyDown(window, { key: "Enter" });
    const warning = await screen.findByTestId("history-broken");
    expect(warning.getAttribute("role")).toBe("alert");
    expect(warning.textContent).toContain("This case's history was changed outside Skillcase");
    expect(warning.textContent).toContain("Event 41: the event was changed after it was written");
    expect(caseHistoryBreaks).toHaveBeenCalledWith({ id: "case-2" });
  });

  it("shows no warning on a case whose history is intact", async () => {
    render(CasesScreen);
    await vi.waitFor(() => expect(rows()).toHaveLength(3));
    await fireEvent.keyDown(window, { key: "Enter" });
    await vi.waitFor(() => expect(screen.getByTestId("case-title").textContent).toBe("Refund 1"));
    expect(caseHistoryBreaks).toHaveBeenCalled();
    expect(screen.queryByTestId("history-broken")).toBeNull();
  });

  it("leaves single-key shortcuts alone while the search field has focus", async () => {
    render(CasesScreen);
    await vi.waitFor(() => expect(rows()).toHaveLength(3));
    await fireEvent.keyDown(window, { key: "/" });
    const search = screen.getByRole("searchbox");
    expect(document.activeElement).toBe(search);
    await fireEvent.keyDown(search, { key: "j" });
    await fireEvent.keyDown(search, { key: "Enter" });
    expect(selectedNumber()).toBe("1001");
    expect(screen.queryByTestId("case-detail")).toBeNull();
  });

  it("searches across the cases as the person types", async () => {
    render(CasesScreen);
    await fireEvent.input(screen.getByRole("searchbox"), { target: { value: "wa-2" } });
    await vi.waitFor(() => expect(casesList).toHaveBeenCalledWith({ filter: expect.objectContaining({ search: "wa-2" }) }), {
      timeout: 2000,
    });
  });

  it("tags a row with the reason the AI handed over, except when none was stated", async () => {
    render(CasesScreen);
    await vi.waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[0].querySelector('[data-reason="policy_restriction"]')?.textContent?.trim()).toBe("Policy restriction");
    expect(rows()[1].querySelector("[data-reason]")).toBeNull();
  });

  it("filters the inbox by the reason picked", async () => {
    render(CasesScreen);
    const select = document.querySelector('select[data-filter="reason"]') as HTMLSelectElement;
    await fireEvent.change(select, { target: { value: "tool_failure" } });
    await vi.waitFor(() => expect(casesList).toHaveBeenCalledWith({ filter: expect.objectContaining({ reason: "tool_failure" }) }));
  });

  it("opens the report with r, shows each reason's figures, and goes back with Esc", async () => {
    render(CasesScreen);
    await fireEvent.keyDown(window, { key: "r" });
    await vi.waitFor(() => expect(screen.getByTestId("report-table")).toBeTruthy());
    const cells = (reason: string) =>
      [...document.querySelectorAll(`[data-testid="report-table"] tr[data-reason="${reason}"] td`)].map((c) => c.textContent);
    expect(cells("policy_restriction")).toEqual(["2", "2", "45 min", "1"]);
    expect(cells("tool_failure")).toEqual(["1", "0", "no answer yet", "0"]);
    expect(cells("all")).toEqual(["3", "2", "45 min", "1"]);
    expect(screen.getByTestId("report-help").textContent).toContain("Reopened: the same conversation already had a case");
    expect(document.querySelectorAll('[data-testid="reason-chart"] rect.segment')).toHaveLength(2);
    expect(casesReport).toHaveBeenCalledWith({ range: expect.objectContaining({ from: expect.any(String), to: expect.any(String) }) });
    await fireEvent.keyDown(window, { key: "Escape" });
    await vi.waitFor(() => expect(screen.queryByTestId("case-report")).toBeNull());
  });

  it("shows the shortcuts with ?", async () => {
    render(CasesScreen);
    await fireEvent.keyDown(window, { key: "?" });
    expect(screen.getByTestId("shortcuts").textContent).toContain("Send the answer");
  });
});

describe("the cases screen in Portuguese", () => {
  it("names the tabs and rows in Portuguese", async () => {
    setLocale("pt-BR");
    render(CasesScreen);
    await vi.waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Casos");
    expect(rows()[1].querySelector("[data-delivery-problem]")?.textContent).toBe("Resposta não entregue");
  });

  it("words the report in Portuguese", async () => {
    setLocale("pt-BR");
    render(CasesScreen);
    await fireEvent.click(screen.getByTestId("open-report"));
    await vi.waitFor(() => expect(screen.getByTestId("report-title").textContent).toBe("Por que a IA repassou"));
    await vi.waitFor(() =>
      expect(document.querySelector('tr[data-reason="policy_restriction"] th')?.textContent?.trim()).toBe("Restrição de política"),
    );
  });
});
