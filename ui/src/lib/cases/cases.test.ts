import { describe, expect, it } from "vitest";
import { waitingFor } from "./waiting";
import { isTextField, shortcutFor, type KeyPress } from "./keyboard";
import { clearDraft, draftFor, keepDraft } from "./drafts";
import { actionAllowed, actionInfo } from "./actions";
import { humanStretches, minutesBetween } from "./timeline";
import type { CaseEvent } from "../bindings/CaseEvent";

const NOW = Date.parse("2026-11-30T12:00:00.000Z");

describe("waiting time", () => {
  it("is 'now' under a minute", () => {
    expect(waitingFor("2026-11-30T11:59:30.000Z", NOW)).toEqual({ unit: "now", n: 0 });
  });
  it("counts whole minutes under an hour", () => {
    expect(waitingFor("2026-11-30T11:15:10.000Z", NOW)).toEqual({ unit: "min", n: 44 });
  });
  it("counts whole hours under a day", () => {
    expect(waitingFor("2026-11-30T09:59:00.000Z", NOW)).toEqual({ unit: "h", n: 2 });
  });
  it("counts whole days beyond", () => {
    expect(waitingFor("2026-11-27T11:00:00.000Z", NOW)).toEqual({ unit: "d", n: 3 });
  });
  it("treats a time in the future or unreadable as now", () => {
    expect(waitingFor("2026-11-30T12:05:00.000Z", NOW).unit).toBe("now");
    expect(waitingFor("not a time", NOW).unit).toBe("now");
  });
});

function press(key: string, target: EventTarget | null = document.body, extra: Partial<KeyPress> = {}): KeyPress {
  return { key, ctrlKey: false, metaKey: false, altKey: false, target, ...extra };
}

describe("keyboard shortcuts", () => {
  const textarea = document.createElement("textarea");
  const search = Object.assign(document.createElement("input"), { type: "search" });
  const checkbox = Object.assign(document.createElement("input"), { type: "checkbox" });

  it("maps single keys when nothing takes text", () => {
    expect(["j", "k", "Enter", "/", "1", "2", "3", "r", "?"].map((k) => shortcutFor(press(k)))).toEqual([
      "next",
      "previous",
      "open",
      "search",
      "resolved",
      "needInfo",
      "escalate",
      "report",
      "help",
    ]);
  });
  it("turns single keys off while a text field has focus", () => {
    for (const key of ["j", "k", "1", "2", "3", "r", "/", "?", "Enter"]) {
      expect(shortcutFor(press(key, textarea))).toBeNull();
      expect(shortcutFor(press(key, search))).toBeNull();
    }
  });
  it("keeps Ctrl+Enter (send) working inside the text area", () => {
    expect(shortcutFor(press("Enter", textarea, { ctrlKey: true }))).toBe("send");
    expect(shortcutFor(press("Enter", document.body, { metaKey: true }))).toBe("send");
  });
  it("opens the internal note with Ctrl+Shift+N, even while typing", () => {
    expect(shortcutFor(press("N", textarea, { ctrlKey: true, shiftKey: true }))).toBe("note");
    expect(shortcutFor(press("n", document.body, { ctrlKey: true, shiftKey: true }))).toBe("note");
    expect(shortcutFor(press("n", document.body, { ctrlKey: true }))).toBeNull();
  });
  it("makes Esc leave a text field first, and go back otherwise", () => {
    expect(shortcutFor(press("Escape", textarea))).toBe("leaveField");
    expect(shortcutFor(press("Escape"))).toBe("back");
  });
  it("ignores keys held with a modifier and keys it does not know", () => {
    expect(shortcutFor(press("j", document.body, { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(press("q"))).toBeNull();
  });
  it("picks the selected case for a bulk action with x, but not while typing", () => {
    expect(shortcutFor(press("x"))).toBe("pick");
    expect(shortcutFor(press("x", textarea))).toBeNull();
  });
  it("sends and opens the next case with Ctrl+Shift+Enter, even while typing", () => {
    expect(shortcutFor(press("Enter", textarea, { ctrlKey: true, shiftKey: true }))).toBe("sendNext");
    expect(shortcutFor(press("Enter", document.body, { metaKey: true, shiftKey: true }))).toBe("sendNext");
  });
  it("does not count a checkbox as a text field", () => {
    expect(isTextField(checkbox)).toBe(false);
    expect(isTextField(textarea)).toBe(true);
  });
});

describe("drafts", () => {
  it("are kept per case and forgotten once sent", () => {
    keepDraft("case-a", { action: "need_lead_info", text: "Which card?" });
    keepDraft("case-b", { action: "resolved", text: "Refunded." });
    expect(draftFor("case-a")).toEqual({ action: "need_lead_info", text: "Which card?" });
    expect(draftFor("case-b").text).toBe("Refunded.");
    clearDraft("case-a");
    expect(draftFor("case-a")).toEqual({ action: null, text: "" });
  });
  it("survive a reload through localStorage", () => {
    keepDraft("case-c", { action: "escalate", text: "Legal threat." });
    expect(JSON.parse(localStorage.getItem("skillcase.case-drafts")!)["case-c"]).toEqual({
      action: "escalate",
      text: "Legal threat.",
    });
  });
  it("that are empty are not kept", () => {
    keepDraft("case-d", { action: null, text: "   " });
    expect(localStorage.getItem("skillcase.case-drafts")).not.toContain("case-d");
  });
});

describe("actions", () => {
  it("label the text area for what the text is for", () => {
    expect(actionInfo("resolved").textLabel).toBe("cases.text.resolved");
    expect(actionInfo("need_lead_info").textLabel).toBe("cases.text.need_lead_info");
    expect(actionInfo("escalate").textLabel).toBe("cases.text.escalate");
  });
  it("follow the transition table: only escalate while waiting on the customer, nothing once closed", () => {
    expect(["resolved", "need_lead_info", "escalate"].map((a) => actionAllowed(a as never, "awaiting_lead"))).toEqual([
      false,
      false,
      true,
    ]);
    expect(actionAllowed("escalate", "resolved")).toBe(false);
    expect(actionAllowed("resolved", "awaiting_human")).toBe(true);
  });
});

function event(kind: CaseEvent["kind"], at: string): CaseEvent {
  return { seq: 0n, case_id: "c", kind, actor: "agent", at, payload: {} };
}

describe("human stretches in the timeline", () => {
  it("start when the case opens or comes back, and end when the person answers", () => {
    const events = [
      event("opened", "2026-11-30T10:00:00.000Z"),
      event("human_replied", "2026-11-30T10:12:00.000Z"),
      event("agent_notified", "2026-11-30T10:12:01.000Z"),
      event("lead_provided", "2026-11-30T11:00:00.000Z"),
      event("human_replied", "2026-11-30T11:05:00.000Z"),
      event("resolved", "2026-11-30T11:05:00.000Z"),
    ];
    expect(humanStretches(events)).toEqual([
      { mark: "start", inside: true },
      { mark: "end", inside: true },
      { mark: null, inside: false },
      { mark: "start", inside: true },
      { mark: "end", inside: true },
      { mark: null, inside: false },
    ]);
    expect(minutesBetween(events[0].at, events[1].at)).toBe(12);
  });
});
