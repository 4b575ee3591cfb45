import { beforeEach, describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import type { CaseEvent } from "$lib/bindings/CaseEvent";
import SlaDue from "./SlaDue.svelte";
import Timeline from "./Timeline.svelte";

const DUE = "2026-12-01T12:00:00.000Z";
const minutes = (n: number) => n * 60_000;

beforeEach(() => setLocale("en"));

describe("a response-time target in words", () => {
  it("counts down in hours and minutes", () => {
    render(SlaDue, { props: { view: { target: "first_reply", kind: "due", ms: minutes(130) }, dueAt: DUE } });
    const due = screen.getByText("First reply due in 2h 10m");
    expect(due.dataset.slaKind).toBe("due");
    expect(due.classList.contains("breach")).toBe(false);
  });

  it("reads overdue as a breach badge", () => {
    render(SlaDue, { props: { view: { target: "resolution", kind: "overdue", ms: minutes(35) }, dueAt: DUE } });
    expect(screen.getByText("Resolution overdue by 35m").classList.contains("breach")).toBe(true);
  });

  it("says how late a target was met, in Portuguese", () => {
    setLocale("pt-BR");
    render(SlaDue, { props: { view: { target: "first_reply", kind: "late", ms: minutes(12) }, dueAt: DUE } });
    expect(screen.getByText("Primeira resposta cumprida com 12 min de atraso").classList.contains("breach")).toBe(true);
  });

  it("counts days and hours in Portuguese", () => {
    setLocale("pt-BR");
    render(SlaDue, { props: { view: { target: "resolution", kind: "due", ms: minutes(60 * 27) }, dueAt: DUE } });
    expect(screen.getByText("Resolução vence em 1 d 3 h")).toBeTruthy();
  });
});

describe("a missed target on the timeline", () => {
  it("names which target was missed", () => {
    const event: CaseEvent = {
      seq: 4n,
      case_id: "c1",
      kind: "sla_overdue",
      actor: "system",
      at: DUE,
      payload: { target: "first_reply", due_at: DUE },
    };
    render(Timeline, { props: { events: [event] } });
    expect(screen.getByText("First-reply target missed")).toBeTruthy();
  });
});
