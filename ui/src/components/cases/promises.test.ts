import { beforeEach, describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import type { Promise as CasePromise } from "$lib/bindings/Promise";
import { clock } from "$lib/clock.svelte";
import PromiseLedger from "./PromiseLedger.svelte";
import PromiseDue from "./PromiseDue.svelte";
import Timeline from "./Timeline.svelte";

function aPromise(overrides: Partial<CasePromise> = {}): CasePromise {
  return {
    seq: 3n,
    made_at: "2026-12-01T11:00:00.000Z",
    quote: "A Letícia te liga amanhã cedo.",
    actor: "A Letícia",
    action: "te liga",
    due_text: "amanhã cedo",
    due_at: "2026-12-02T12:00:00.000Z",
    kept: false,
    spans: [
      { role: "actor", start: 0, end: 9, text: "A Letícia" },
      { role: "action", start: 10, end: 17, text: "te liga" },
    ],
    ...overrides,
  };
}

beforeEach(() => {
  setLocale("en");
  clock.now = Date.parse("2026-12-01T12:00:00.000Z");
});

describe("the promise's due time", () => {
  it("counts down while it is ahead", () => {
    render(PromiseDue, { dueAt: "2026-12-01T14:00:00.000Z" });
    const due = screen.getByText("due in 2 h");
    expect(due.dataset.overdue).toBe("false");
  });

  it("turns to overdue in Portuguese too", () => {
    setLocale("pt-BR");
    render(PromiseDue, { dueAt: "2026-12-01T11:30:00.000Z" });
    expect(screen.getByText("vencida há 30 min").dataset.overdue).toBe("true");
  });

  it("says when the agent gave no time", () => {
    render(PromiseDue, { dueAt: null });
    expect(screen.getByText("no time given")).toBeTruthy();
  });
});

describe("the promise ledger", () => {
  it("marks who and what inside the customer's words", () => {
    render(PromiseLedger, { promises: [aPromise()] });
    const quote = screen.getByTestId("promise-quote");
    expect(quote.textContent).toBe("A Letícia te liga amanhã cedo.");
    const marks = Array.from(quote.querySelectorAll("mark")).map((m) => [m.dataset.role, m.textContent]);
    expect(marks).toEqual([
      ["actor", "A Letícia"],
      ["action", "te liga"],
    ]);
    expect(screen.getByTestId("promise-actor").textContent).toBe("A Letícia");
    expect(screen.getByTestId("promise-when").textContent).toContain("due in 1 d");
  });

  it("lists the newest promise first and shows which ones a person answered", () => {
    render(PromiseLedger, {
      promises: [aPromise({ seq: 1n, quote: "Ligamos hoje.", spans: [], kept: true }), aPromise()],
    });
    const items = screen.getByTestId("promise-ledger").querySelectorAll("li");
    expect(Array.from(items).map((li) => [li.dataset.kept, li.querySelector("q")?.textContent])).toEqual([
      ["false", "A Letícia te liga amanhã cedo."],
      ["true", "Ligamos hoje."],
    ]);
    expect(items[1].textContent).toContain("Answered by a person");
    expect(items[1].textContent).not.toContain("due in");
  });
});

describe("the timeline", () => {
  it("tells a promise the agent made with its words, not an action label", () => {
    // `events` is also a mount option's name, so the props go under `props`.
    render(Timeline, {
      props: {
        events: [
        {
          seq: 2n,
          case_id: "case-1",
          kind: "promise_made",
          actor: "agent",
          at: "2026-12-01T11:00:00.000Z",
          payload: { quote: "A Letícia te liga amanhã cedo.", action: "te liga", due_text: "amanhã cedo" },
        },
        ],
      },
    });
    const item = screen.getByText("The agent promised the customer a follow-up").closest("li")!;
    expect(item.textContent).toContain("A Letícia te liga amanhã cedo.");
  });
});
