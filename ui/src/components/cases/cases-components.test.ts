import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import type { Case } from "$lib/backend";
import InboxTabs from "./InboxTabs.svelte";
import ReplyPanel from "./ReplyPanel.svelte";
import WaitingTime from "./WaitingTime.svelte";
import { clock } from "$lib/cases/clock.svelte";

const replyToCase = vi.fn();
vi.mock("$lib/backend", () => ({ replyToCase: (...args: unknown[]) => replyToCase(...args) }));

function aCase(overrides: Partial<Case> = {}): Case {
  return {
    id: "case-1",
    number: 1042n,
    conversation_id: "wa-1",
    lead: { name: "Maria Souza" },
    status: "awaiting_human",
    title: "Refund for a double charge",
    summary: "Charged twice.",
    context: [],
    source: "agent",
    waiting_since: "2026-11-30T10:00:00.000Z",
    opened_at: "2026-11-30T10:00:00.000Z",
    updated_at: "2026-11-30T10:00:00.000Z",
    closed_at: null,
    ...overrides,
  };
}

beforeEach(() => {
  setLocale("en");
  localStorage.clear();
  replyToCase.mockReset();
});

describe("the inbox tabs", () => {
  it("show each tab's live count", () => {
    render(InboxTabs, {
      tab: "waiting_on_you",
      counts: { waiting_on_you: 12n, waiting_on_customer: 3n, closed: 40n, unread: 2n },
      onselect: () => {},
    });
    const tabs = screen.getAllByRole("tab").map((t) => t.textContent?.replace(/\s+/g, " ").trim());
    expect(tabs).toEqual(["Waiting on you 12", "Waiting on customer 3", "Closed 40"]);
    expect(screen.getByRole("tab", { selected: true }).textContent).toContain("Waiting on you");
  });

  it("speak Portuguese", () => {
    setLocale("pt-BR");
    render(InboxTabs, { tab: "closed", counts: null, onselect: () => {} });
    expect(screen.getAllByRole("tab").map((t) => t.textContent?.replace(/[\s–]+/g, " ").trim())).toEqual([
      "Aguardando você",
      "Aguardando cliente",
      "Encerrados",
    ]);
  });
});

describe("the waiting time", () => {
  it("ticks with the shared clock", async () => {
    clock.now = Date.parse("2026-11-30T10:30:00.000Z");
    render(WaitingTime, { since: "2026-11-30T10:00:00.000Z" });
    expect(document.querySelector(".waiting")?.textContent).toBe("waiting 30 min");
    clock.now = Date.parse("2026-11-30T12:10:00.000Z");
    await Promise.resolve();
    await vi.waitFor(() => expect(document.querySelector(".waiting")?.textContent).toBe("waiting 2 h"));
  });
});

describe("the reply panel", () => {
  it("labels the text area for the chosen action", async () => {
    render(ReplyPanel, { current: aCase(), onsent: () => {} });
    const label = () => screen.getByTestId("reply-label").textContent;
    expect(label()).toBe("Pick an action first (1, 2 or 3)");
    await fireEvent.click(screen.getByRole("radio", { name: /Resolved/ }));
    expect(label()).toBe("Note for the customer");
    await fireEvent.click(screen.getByRole("radio", { name: /Need info from customer/ }));
    expect(label()).toBe("What to ask the customer");
    await fireEvent.click(screen.getByRole("radio", { name: /Escalate/ }));
    expect(label()).toBe("Reason for escalating");
  });

  it("sends the action and the text, then forgets the draft", async () => {
    const onsent = vi.fn();
    replyToCase.mockResolvedValue({ case: aCase({ status: "awaiting_lead" }), events: [], deliveries: [] });
    render(ReplyPanel, { current: aCase(), onsent });
    await fireEvent.click(screen.getByRole("radio", { name: /Need info/ }));
    await fireEvent.input(screen.getByRole("textbox"), { target: { value: "Which card was charged?" } });
    await fireEvent.click(screen.getByTestId("send"));
    await vi.waitFor(() => expect(onsent).toHaveBeenCalled());
    expect(replyToCase).toHaveBeenCalledWith("case-1", "need_lead_info", "Which card was charged?");
    expect(localStorage.getItem("skillcase.case-drafts")).toBe("{}");
  });

  it("asks to confirm an escalation before sending it", async () => {
    replyToCase.mockResolvedValue({ case: aCase({ status: "escalated" }), events: [], deliveries: [] });
    render(ReplyPanel, { current: aCase(), onsent: () => {} });
    await fireEvent.click(screen.getByRole("radio", { name: /Escalate/ }));
    await fireEvent.input(screen.getByRole("textbox"), { target: { value: "Legal threat." } });
    await fireEvent.click(screen.getByTestId("send"));
    expect(replyToCase).not.toHaveBeenCalled();
    expect(screen.getByTestId("confirm-escalate").textContent).toContain("Escalate case #1042?");
    await fireEvent.click(screen.getByTestId("confirm-yes"));
    await vi.waitFor(() => expect(replyToCase).toHaveBeenCalledWith("case-1", "escalate", "Legal threat."));
  });

  it("keeps the draft of a case when the person leaves and comes back", async () => {
    const first = render(ReplyPanel, { current: aCase(), onsent: () => {} });
    await fireEvent.click(screen.getByRole("radio", { name: /Resolved/ }));
    await fireEvent.input(screen.getByRole("textbox"), { target: { value: "Refund approved today." } });
    first.unmount();
    render(ReplyPanel, { current: aCase({ id: "case-2" }), onsent: () => {} });
    expect((screen.getByRole("textbox") as HTMLTextAreaElement).value).toBe("");
    screen.getByRole("textbox");
    document.body.innerHTML = "";
    render(ReplyPanel, { current: aCase(), onsent: () => {} });
    expect((screen.getByRole("textbox") as HTMLTextAreaElement).value).toBe("Refund approved today.");
    expect(screen.getByTestId("reply-label").textContent).toBe("Note for the customer");
  });

  it("offers only Escalate while the case waits on the customer, and nothing once closed", () => {
    const waiting = render(ReplyPanel, { current: aCase({ status: "awaiting_lead" }), onsent: () => {} });
    const disabled = screen.getAllByRole("radio").map((b) => (b as HTMLButtonElement).disabled);
    expect(disabled).toEqual([true, true, false]);
    waiting.unmount();
    render(ReplyPanel, { current: aCase({ status: "resolved" }), onsent: () => {} });
    expect(screen.getByTestId("reply-closed").textContent).toBe("This case is closed; it takes no more answers.");
    expect(screen.queryAllByRole("radio")).toEqual([]);
  });
});
