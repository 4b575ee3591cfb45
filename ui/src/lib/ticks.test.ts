import { describe, expect, it } from "vitest";
import { largestUnit, nextChange, twoUnits } from "./ticks";
import { waitingFor } from "./cases/waiting";
import { promiseClock } from "./cases/promises";
import { span } from "./cases/sla";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const since = Date.parse("2026-12-01T08:00:00.000Z");

/** Counting labels only ever move one way, so one that reads the same just before the predicted
 * moment as now has not changed in between. */
describe("when a counting label next changes", () => {
  it("a waiting time in minutes changes at the next whole minute since it began", () => {
    expect(nextChange(since, since + 5 * MIN + 20_000, largestUnit)).toBe(since + 6 * MIN);
  });

  it("a waiting time in days changes only at the next whole day", () => {
    expect(nextChange(since, since + 3 * DAY + 5 * HOUR, largestUnit)).toBe(since + 4 * DAY);
  });

  it("a countdown changes when a whole unit less is left, and when it falls due", () => {
    const due = since + 2 * HOUR + 30 * MIN;
    expect(nextChange(due, since, largestUnit)).toBe(due - 2 * HOUR);
    expect(nextChange(due, due - 20_000, twoUnits)).toBe(due);
  });

  it("right on a boundary the label changes the next moment", () => {
    const due = since + 2 * HOUR;
    expect(nextChange(due, due - 30 * MIN, twoUnits)).toBe(due - 30 * MIN + 1);
  });

  it("is never later than the label really changes, for every label and many moments", () => {
    const labels: [string, (now: number) => string, (d: number) => number][] = [
      ["waiting", (now) => JSON.stringify(waitingFor("2026-12-01T08:00:00.000Z", now)), largestUnit],
      ["promise", (now) => JSON.stringify(promiseClock("2026-12-03T08:00:00.000Z", now)), largestUnit],
      ["sla", (now) => JSON.stringify([now < since + 2 * DAY, span(since + 2 * DAY - now)]), twoUnits],
    ];
    const at = { waiting: since, promise: since + 2 * DAY, sla: since + 2 * DAY };
    for (const [name, label, step] of labels) {
      for (let now = since; now < since + 4 * DAY; now += 7 * MIN + 13_000) {
        const predicted = nextChange(at[name as keyof typeof at], now, step);
        expect(predicted, `${name} at ${new Date(now).toISOString()}`).toBeGreaterThan(now);
        expect(label(predicted - 1), `${name} at ${new Date(now).toISOString()}`).toBe(label(now));
      }
    }
  });
});
