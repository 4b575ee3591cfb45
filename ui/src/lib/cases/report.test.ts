import { describe, expect, it } from "vitest";
import { durationParts, lastWeeks, layoutWeeks } from "./report";
import type { ReportWeek } from "../bindings/ReportWeek";

describe("the report's range", () => {
  it("runs from the Monday of the first of the last weeks to today", () => {
    // Wednesday 2 December 2026: this week began on Monday 30 November.
    expect(lastWeeks(4, new Date("2026-12-02T15:00:00Z"))).toEqual({ from: "2026-11-09", to: "2026-12-02" });
  });
  it("counts a Sunday in the week that began six days before", () => {
    expect(lastWeeks(1, new Date("2026-12-06T23:59:00Z"))).toEqual({ from: "2026-11-30", to: "2026-12-06" });
  });
  it("starts this very day on a Monday", () => {
    expect(lastWeeks(1, new Date("2026-11-30T00:00:00Z"))).toEqual({ from: "2026-11-30", to: "2026-11-30" });
  });
});

describe("the chart's bars", () => {
  const weeks: ReportWeek[] = [
    { week: "2026-11-02", total: 4n, by_reason: [{ reason: "policy_restriction", cases: 3n }, { reason: "customer_request", cases: 1n }] },
    { week: "2026-11-09", total: 0n, by_reason: [] },
  ];

  it("stacks each week's reasons bottom up in the legend's order, the busiest week full height", () => {
    const { bars, max } = layoutWeeks(weeks, 200, 100, 0);
    expect(max).toBe(4);
    expect(bars[0].segments).toEqual([
      { reason: "customer_request", cases: 1, y: 75, height: 25 },
      { reason: "policy_restriction", cases: 3, y: 0, height: 75 },
    ]);
    expect(bars[0]).toMatchObject({ x: 0, width: 100, total: 4 });
  });

  it("leaves an empty week without segments", () => {
    const { bars } = layoutWeeks(weeks, 200, 100, 0);
    expect(bars[1]).toMatchObject({ week: "2026-11-09", x: 100, segments: [] });
  });

  it("draws nothing when no week has a case", () => {
    const { bars, max } = layoutWeeks([{ week: "2026-11-02", total: 0n, by_reason: [] }], 100, 100);
    expect(max).toBe(0);
    expect(bars[0].segments).toEqual([]);
  });
});

describe("a median time", () => {
  it("reads as under a minute below 60 seconds", () => {
    expect(durationParts(59)).toEqual({ kind: "under_min" });
  });
  it("reads in whole minutes under an hour", () => {
    expect(durationParts(1800)).toEqual({ kind: "min", min: 30 });
  });
  it("reads in hours and minutes under a day", () => {
    expect(durationParts(2 * 3600 + 5 * 60)).toEqual({ kind: "h", h: 2, min: 5 });
  });
  it("reads in days and hours beyond", () => {
    expect(durationParts(27 * 3600)).toEqual({ kind: "d", d: 1, h: 3 });
  });
});
