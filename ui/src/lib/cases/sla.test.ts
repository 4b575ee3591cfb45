import { describe, expect, it } from "vitest";
import { slaRow, slaView, span } from "./sla";
import type { SlaClock } from "../bindings/SlaClock";
import type { CaseSla } from "../bindings/CaseSla";

const DUE = "2026-12-01T12:00:00.000Z";
const now = (stamp: string) => Date.parse(stamp);
const clock = (over: Partial<SlaClock> = {}): SlaClock => ({
  target_minutes: 60,
  due_at: DUE,
  met_at: null,
  state: "running",
  ...over,
});
const minutes = (n: number) => n * 60_000;

describe("slaView", () => {
  it("counts down to the due time while the target runs", () => {
    expect(slaView("first_reply", clock(), null, now("2026-12-01T09:50:00.000Z"))).toEqual({
      target: "first_reply",
      kind: "due",
      ms: minutes(130),
    });
  });

  it("turns overdue once the due time passes, without a reload", () => {
    expect(slaView("resolution", clock(), null, now("2026-12-01T12:35:00.000Z"))).toMatchObject({
      kind: "overdue",
      ms: minutes(35),
    });
  });

  it("is late by how much it was met after its due time", () => {
    const met = clock({ met_at: "2026-12-01T12:12:00.000Z" });
    expect(slaView("first_reply", met, null, now("2026-12-02T00:00:00.000Z"))).toMatchObject({
      kind: "late",
      ms: minutes(12),
    });
  });

  it("is met when met before its due time", () => {
    expect(slaView("first_reply", clock({ met_at: "2026-12-01T11:00:00.000Z" }), null, now(DUE)).kind).toBe("met");
  });

  it("stands still while paused, however late it is now", () => {
    const paused = slaView("resolution", clock(), "2026-12-01T11:00:00.000Z", now("2026-12-09T00:00:00.000Z"));
    expect(paused.kind).toBe("paused");
  });

  it("still shows a breach when the pause began after the due time", () => {
    expect(slaView("resolution", clock(), "2026-12-01T12:20:00.000Z", now(DUE))).toMatchObject({
      kind: "overdue",
      ms: minutes(20),
    });
  });
});

describe("slaRow", () => {
  const sla = (over: Partial<CaseSla>): CaseSla => ({
    first_reply: null,
    resolution: null,
    paused_since: null,
    next_due_at: null,
    ...over,
  });

  it("shows the resolution once the first reply is met, with a badge when it was late", () => {
    const row = slaRow(
      sla({
        first_reply: clock({ met_at: "2026-12-01T12:30:00.000Z" }),
        resolution: clock({ due_at: "2026-12-01T18:00:00.000Z" }),
      }),
      now("2026-12-01T13:00:00.000Z"),
    );
    expect(row.current).toMatchObject({ target: "resolution", kind: "due", ms: minutes(300) });
    expect(row.breaches).toEqual([{ target: "first_reply", kind: "late", ms: minutes(30) }]);
  });

  it("shows nothing for a case opened with the targets off", () => {
    expect(slaRow(sla({}), now(DUE))).toEqual({ current: null, breaches: [] });
  });
});

describe("span", () => {
  it("writes under an hour in minutes, at least one", () => {
    expect(span(minutes(35))).toEqual({ key: "m", d: 0, h: 0, m: 35 });
    expect(span(10_000)).toEqual({ key: "m", d: 0, h: 0, m: 1 });
  });

  it("writes hours with their minutes", () => {
    expect(span(minutes(130))).toEqual({ key: "hm", d: 0, h: 2, m: 10 });
  });

  it("writes days with their hours", () => {
    expect(span(minutes(60 * 27 + 5))).toEqual({ key: "dh", d: 1, h: 3, m: 0 });
  });
});
