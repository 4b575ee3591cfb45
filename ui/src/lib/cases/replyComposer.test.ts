import { beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../i18n/index.svelte";
import { aCase } from "../../test/cases";
import { draftFor, keepDraft } from "./drafts";
import { ReplyComposer } from "./replyComposer.svelte";

const caseReply = vi.fn();
const caseTake = vi.fn();
vi.mock("$lib/bindings/commands", () => ({
  caseReply: (...a: unknown[]) => caseReply(...a),
  caseTake: (...a: unknown[]) => caseTake(...a),
}));

const SENT = { case: aCase({ status: "resolved" }), events: [], deliveries: [], promises: [] };

beforeEach(() => {
  setLocale("en");
  localStorage.clear();
  caseReply.mockReset().mockResolvedValue(SENT);
  caseTake.mockReset().mockResolvedValue(aCase({ assignee: "Ana Souza" }));
});

describe("the reply being written", () => {
  it("starts from the case's draft", () => {
    const reply = new ReplyComposer({ action: "need_lead_info", text: "Which card?" });
    expect([reply.action, reply.text]).toEqual(["need_lead_info", "Which card?"]);
  });

  it("can be sent only with an action the case's status allows and some text", () => {
    const reply = new ReplyComposer({ action: "resolved", text: "  " });
    expect(reply.canSend("awaiting_human")).toBe(false);
    reply.text = "Refunded.";
    expect(reply.canSend("awaiting_human")).toBe(true);
    expect(reply.canSend("awaiting_lead")).toBe(false);
    reply.pick("escalate");
    expect(reply.canSend("awaiting_lead")).toBe(true);
  });

  it("sends the action and the text, then starts empty and forgets the draft", async () => {
    keepDraft("case-1", { action: "resolved", text: "Refunded today." });
    const reply = new ReplyComposer(draftFor("case-1"));
    expect(await reply.send(aCase(), false)).toBe(SENT);
    expect(caseReply).toHaveBeenCalledWith({ id: "case-1", action: "resolved", text: "Refunded today." });
    expect([reply.action, reply.text]).toEqual([null, ""]);
    expect(draftFor("case-1")).toEqual({ action: null, text: "" });
  });

  it("asks to confirm an escalation, and sends it when sent again, keeping Send & next", async () => {
    const reply = new ReplyComposer({ action: "escalate", text: "Legal threat." });
    expect(await reply.send(aCase(), true)).toBe("confirm");
    expect(reply.confirming).toBe(true);
    expect(caseReply).not.toHaveBeenCalled();
    expect(await reply.send(aCase(), false)).toBe(SENT);
    expect(reply.confirming).toBe(false);
    expect(reply.thenNext).toBe(true);
  });

  it("closes the escalation confirmation without sending, saying whether it was up", async () => {
    const reply = new ReplyComposer({ action: "escalate", text: "Legal threat." });
    expect(reply.cancelConfirmation()).toBe(false);
    await reply.send(aCase(), false);
    expect(reply.cancelConfirmation()).toBe(true);
    expect(reply.confirming).toBe(false);
    expect(caseReply).not.toHaveBeenCalled();
  });

  it("keeps the text and says why when the send is refused", async () => {
    caseReply.mockRejectedValue({ code: "invalid_transition", message: "the case is closed" });
    const reply = new ReplyComposer({ action: "resolved", text: "Refunded." });
    expect(await reply.send(aCase(), false)).toBeNull();
    expect(reply.error).toBe("The answer was not saved: the case is closed");
    expect(reply.text).toBe("Refunded.");
    expect(reply.takeOver).toBe(false);
  });

  it("offers Take over when the send is refused because someone else is replying", async () => {
    caseReply.mockRejectedValue({ code: "case_being_replied", message: "Bruno is replying" });
    const reply = new ReplyComposer({ action: "resolved", text: "Refunded." });
    await reply.send(aCase(), false);
    expect(reply.takeOver).toBe(true);
  });

  it("takes the case over, and says why when that is refused", async () => {
    const reply = new ReplyComposer({ action: "resolved", text: "Refunded." });
    reply.takeOver = true;
    expect(await reply.takeCase("case-1")).toBe(true);
    expect(caseTake).toHaveBeenCalledWith({ id: "case-1" });
    expect(reply.takeOver).toBe(false);
    caseTake.mockRejectedValue({ code: "case_not_open", message: "the case is closed" });
    expect(await reply.takeCase("case-1")).toBe(false);
    expect(reply.error).toBe("The answer was not saved: the case is closed");
  });
});
