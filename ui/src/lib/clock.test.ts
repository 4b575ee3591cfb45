import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clock, tickAt, useClock } from "./clock.svelte";

describe("the shared clock", () => {
  let stop: () => void;
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse("2026-12-01T08:00:00.000Z") });
    stop = useClock();
  });
  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  it("does not tick while no label asks it to", () => {
    const before = clock.now;
    vi.advanceTimersByTime(10 * 60_000);
    expect(clock.now).toBe(before);
  });

  it("ticks once, just after the earliest moment asked for", () => {
    const start = Date.now();
    tickAt(start + 3 * 60_000);
    tickAt(start + 60_000);
    vi.advanceTimersByTime(60_000 - 1);
    expect(clock.now).toBe(start);
    vi.advanceTimersByTime(10);
    expect(clock.now).toBeGreaterThanOrEqual(start + 60_000);
    const ticked = clock.now;
    vi.advanceTimersByTime(5 * 60_000);
    expect(clock.now, "the later request was replaced by the earlier one").toBe(ticked);
  });

  it("stops ticking when the last screen using it stops", () => {
    const start = Date.now();
    tickAt(start + 60_000);
    stop();
    vi.advanceTimersByTime(2 * 60_000);
    expect(clock.now).toBe(start);
    stop = useClock();
  });
});
