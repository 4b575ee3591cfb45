import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import type { Case } from "$lib/bindings/Case";
import InboxTabs from "./InboxTabs.svelte";
import ReplyPanel from "./ReplyPanel.svelte";
import WaitingTime from "./WaitingTime.svelte";
import BulkBar from "./BulkBar.svelte";
import { clock } from "$lib/clock.svelte";
import { aCase } from "../../test/cases";

const caseReply = vi.fn();
const caseAddNote = vi.fn();
const casesMarkRead = vi.fn();
const casesCancel = vi.fn();
const casesAssign = vi.fn();
vi.mock("$lib/bindings/commands", () => ({
  casesAssign: (...args: unknown[]) => casesAssign(...args),
  casesMe: async () => "Ana Souza",
  caseReply: (...args: unknown[]) => caseReply(...args),
  caseHoldReply: vi.fn(async () => ({ person: "Ana Souza", until: "2999-01-01T00:00:00.000Z" })),
  caseTake: vi.fn(),
  caseAddNote: (...args: unknown[]) => caseAddNote(...args),
  casesMarkRead: (...args: unknown[]) => casesMarkRead(...args),
  casesCancel: (...args: unknown[]) => casesCancel(...args),
}));
vi.mock("$lib/backend", () => ({
  hasCode: (err: { code: string }, ...codes: string[]) => codes.includes(err.code),
}));

beforeEach(() => {
  setLocale("en");
  localStorage.clear();
  caseReply.mockReset();
  caseAddNote.mockReset();
  casesMarkRead.mockReset();
  casesCancel.mockReset();
  casesAssign.mockReset();
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
    caseReply.mockResolvedValue({ case: aCase({ status: "awaiting_lead" }), events: [], deliveries: [] });
    render(ReplyPanel, { current: aCase(), onsent });
    await fireEvent.click(screen.getByRole("radio", { name: /Need info/ }));
    await fireEvent.input(screen.getByRole("textbox"), { target: { value: "Which card was charged?" } });
    await fireEvent.click(screen.getByTestId("send"));
    await vi.waitFor(() => expect(onsent).toHaveBeenCalled());
    expect(caseReply).toHaveBeenCalledWith({ id: "case-1", action: "need_lead_info", text: "Which card was charged?" });
    expect(localStorage.getItem("skillcase.case-drafts")).toBe("{}");
  });

  it("with Send & next, sends and then asks for the next case", async () => {
    const onnext = vi.fn();
    const answered = aCase({ status: "resolved" });
    caseReply.mockResolvedValue({ case: answered, events: [], deliveries: [] });
    render(ReplyPanel, { props: { current: aCase(), onsent: () => {}, onnext } });
    await fireEvent.click(screen.getByRole("radio", { name: /Resolved/ }));
    await fireEvent.input(screen.getByRole("textbox"), { target: { value: "Refunded today." } });
    await fireEvent.click(screen.getByTestId("send-next"));
    await vi.waitFor(() => expect(onnext).toHaveBeenCalledWith(answered));
  });

  it("with plain Send, does not open the next case", async () => {
    const onnext = vi.fn();
    caseReply.mockResolvedValue({ case: aCase({ status: "resolved" }), events: [], deliveries: [] });
    const onsent = vi.fn();
    render(ReplyPanel, { props: { current: aCase(), onsent, onnext } });
    await fireEvent.click(screen.getByRole("radio", { name: /Resolved/ }));
    await fireEvent.input(screen.getByRole("textbox"), { target: { value: "Refunded today." } });
    await fireEvent.click(screen.getByTestId("send"));
    await vi.waitFor(() => expect(onsent).toHaveBeenCalled());
    expect(onnext).not.toHaveBeenCalled();
  });

  it("opens the next case after a confirmed escalation sent with Send & next", async () => {
    const onnext = vi.fn();
    caseReply.mockResolvedValue({ case: aCase({ status: "escalated" }), events: [], deliveries: [] });
    render(ReplyPanel, { props: { current: aCase(), onsent: () => {}, onnext } });
    await fireEvent.click(screen.getByRole("radio", { name: /Escalate/ }));
    await fireEvent.input(screen.getByRole("textbox"), { target: { value: "Legal threat." } });
    await fireEvent.click(screen.getByTestId("send-next"));
    expect(onnext).not.toHaveBeenCalled();
    await fireEvent.click(screen.getByTestId("confirm-yes"));
    await vi.waitFor(() => expect(onnext).toHaveBeenCalled());
  });

  it("asks to confirm an escalation before sending it", async () => {
    caseReply.mockResolvedValue({ case: aCase({ status: "escalated" }), events: [], deliveries: [] });
    render(ReplyPanel, { current: aCase(), onsent: () => {} });
    await fireEvent.click(screen.getByRole("radio", { name: /Escalate/ }));
    await fireEvent.input(screen.getByRole("textbox"), { target: { value: "Legal threat." } });
    await fireEvent.click(screen.getByTestId("send"));
    expect(caseReply).not.toHaveBeenCalled();
    expect(screen.getByTestId("confirm-escalate").textContent).toContain("Escalate case #1042?");
    await fireEvent.click(screen.getByTestId("confirm-yes"));
    await vi.waitFor(() => expect(caseReply).toHaveBeenCalledWith({ id: "case-1", action: "escalate", text: "Legal threat." }));
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

describe("the internal note", () => {
  it("is a tab beside the reply that says the note is not sent", async () => {
    render(ReplyPanel, { current: aCase(), onsent: () => {} });
    await fireEvent.click(screen.getByRole("tab", { name: /Internal note/ }));
    expect(screen.getByRole("tab", { selected: true }).textContent).toContain("Internal note");
    expect(screen.getByLabelText(/not sent to the agent or the customer/)).toBeTruthy();
  });

  it("saves the note without sending a reply", async () => {
    const onsent = vi.fn();
    caseAddNote.mockResolvedValue({ case: aCase(), events: [], deliveries: [], promises: [] });
    render(ReplyPanel, { current: aCase(), onsent });
    await fireEvent.click(screen.getByTestId("tab-note"));
    await fireEvent.input(screen.getByTestId("note-text"), { target: { value: "Manager approved by phone." } });
    await fireEvent.click(screen.getByTestId("save-note"));
    await vi.waitFor(() => expect(onsent).toHaveBeenCalled());
    expect(caseAddNote).toHaveBeenCalledWith({ id: "case-1", text: "Manager approved by phone." });
    expect(caseReply).not.toHaveBeenCalled();
    expect((screen.getByTestId("note-text") as HTMLTextAreaElement).value).toBe("");
  });

  it("refuses an empty note with a message and saves nothing", async () => {
    render(ReplyPanel, { current: aCase(), onsent: () => {} });
    await fireEvent.click(screen.getByTestId("tab-note"));
    await fireEvent.input(screen.getByTestId("note-text"), { target: { value: "   " } });
    await fireEvent.click(screen.getByTestId("save-note"));
    expect(screen.getByRole("alert").textContent).toBe("Write the note first: an empty note is not saved.");
    expect(caseAddNote).not.toHaveBeenCalled();
  });

  it("can be written on a closed case", async () => {
    render(ReplyPanel, { current: aCase({ status: "resolved", closed_at: "2026-11-30T11:00:00.000Z" }), onsent: () => {} });
    await fireEvent.click(screen.getByTestId("tab-note"));
    expect(screen.getByTestId("note-text")).toBeTruthy();
  });

  it("speaks Portuguese", async () => {
    setLocale("pt-BR");
    render(ReplyPanel, { current: aCase(), onsent: () => {} });
    await fireEvent.click(screen.getByTestId("tab-note"));
    await fireEvent.click(screen.getByTestId("save-note"));
    expect(screen.getByRole("alert").textContent).toBe("Escreva a nota primeiro: uma nota vazia não é salva.");
  });
});

describe("the bulk actions bar", () => {
  it("marks the picked cases read and says how many", async () => {
    const ondone = vi.fn();
    casesMarkRead.mockResolvedValue(undefined);
    render(BulkBar, { props: { ids: ["a", "b"], cancellable: true, ondone, onclear: () => {} } });
    expect(screen.getByTestId("bulk-count").textContent).toBe("2 cases selected");
    await fireEvent.click(screen.getByTestId("bulk-read"));
    expect(casesMarkRead).toHaveBeenCalledWith({ ids: ["a", "b"], read: true });
    await vi.waitFor(() => expect(ondone).toHaveBeenCalledWith("2 cases marked read."));
  });

  it("cancels only with a reason, after asking", async () => {
    const ondone = vi.fn();
    casesCancel.mockResolvedValue([]);
    render(BulkBar, { props: { ids: ["a"], cancellable: true, ondone, onclear: () => {} } });
    await fireEvent.click(screen.getByTestId("bulk-cancel"));
    expect(screen.getByTestId("bulk-cancel-dialog").textContent).toContain("Cancel 1 case?");
    await fireEvent.click(screen.getByTestId("bulk-cancel-yes"));
    expect(screen.getByTestId("bulk-cancel-error").textContent).toBe("Write why these cases are cancelled.");
    expect(casesCancel).not.toHaveBeenCalled();
    await fireEvent.input(screen.getByTestId("bulk-cancel-reason"), { target: { value: "Spam" } });
    await fireEvent.click(screen.getByTestId("bulk-cancel-yes"));
    expect(casesCancel).toHaveBeenCalledWith({ ids: ["a"], reason: "Spam" });
    await vi.waitFor(() => expect(ondone).toHaveBeenCalledWith("1 case cancelled."));
  });

  it("says why nothing changed when the backend refuses", async () => {
    casesMarkRead.mockRejectedValue({ code: "case_not_found", message: "no case with id a" });
    render(BulkBar, { props: { ids: ["a"], cancellable: true, ondone: () => {}, onclear: () => {} } });
    await fireEvent.click(screen.getByTestId("bulk-unread"));
    expect((await screen.findByTestId("bulk-error")).textContent).toBe("Nothing was changed: no case with id a");
  });

  it("takes the picked cases for the person at this desktop", async () => {
    const ondone = vi.fn();
    casesAssign.mockResolvedValue([]);
    render(BulkBar, { props: { ids: ["a", "b"], cancellable: true, ondone, onclear: () => {} } });
    await fireEvent.click(screen.getByTestId("bulk-take"));
    await vi.waitFor(() => expect(ondone).toHaveBeenCalledWith("2 cases assigned to Ana Souza."));
    expect(casesAssign).toHaveBeenCalledWith({ ids: ["a", "b"], assignee: "Ana Souza" });
  });

  it("assigns the picked cases to the name typed, and asks for one when blank", async () => {
    const ondone = vi.fn();
    casesAssign.mockResolvedValue([]);
    render(BulkBar, { props: { ids: ["a"], cancellable: true, ondone, onclear: () => {} } });
    await fireEvent.click(screen.getByTestId("bulk-assign"));
    await fireEvent.click(screen.getByTestId("bulk-assign-yes"));
    expect(screen.getByTestId("bulk-assign-error").textContent).toBe("Write the name of the person who takes them.");
    await fireEvent.input(screen.getByTestId("bulk-assign-name"), { target: { value: "  Bruno " } });
    await fireEvent.click(screen.getByTestId("bulk-assign-yes"));
    expect(casesAssign).toHaveBeenCalledWith({ ids: ["a"], assignee: "Bruno" });
    await vi.waitFor(() => expect(ondone).toHaveBeenCalledWith("1 case assigned to Bruno."));
  });

  it("unassigns the picked cases", async () => {
    const ondone = vi.fn();
    casesAssign.mockResolvedValue([]);
    render(BulkBar, { props: { ids: ["a"], cancellable: true, ondone, onclear: () => {} } });
    await fireEvent.click(screen.getByTestId("bulk-unassign"));
    expect(casesAssign).toHaveBeenCalledWith({ ids: ["a"], assignee: null });
    await vi.waitFor(() => expect(ondone).toHaveBeenCalledWith("1 case unassigned."));
  });

  it("does not offer to cancel closed cases", () => {
    render(BulkBar, { props: { ids: ["a"], cancellable: false, ondone: () => {}, onclear: () => {} } });
    expect((screen.getByTestId("bulk-cancel") as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId("bulk-assign") as HTMLButtonElement).disabled).toBe(true);
  });

  it("speaks Portuguese", () => {
    setLocale("pt-BR");
    render(BulkBar, { props: { ids: ["a", "b", "c"], cancellable: true, ondone: () => {}, onclear: () => {} } });
    expect(screen.getByTestId("bulk-count").textContent).toBe("3 casos selecionados");
    expect(screen.getByTestId("bulk-read").textContent?.trim()).toBe("Marcar como lido");
  });
});
