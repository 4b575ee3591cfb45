import { describe, expect, it } from "vitest";
import { relativeNextChange, relativeTime } from "./time";

describe("relative time", () => {
  const now = new Date("2026-11-30T15:00:00Z");

  it("says how long ago in the largest whole unit", () => {
    expect(relativeTime("2026-11-30T14:57:00Z", now, "en")).toBe("3 minutes ago");
    expect(relativeTime("2026-11-28T15:00:00Z", now, "en")).toBe("2 days ago");
    expect(relativeTime("2026-11-30T12:00:00Z", now, "pt-BR")).toBe("há 3 horas");
  });

  it("says now under a minute", () => {
    expect(relativeTime("2026-11-30T14:59:30Z", now, "en")).toBe("now");
  });
});

describe("when a relative time next changes", () => {
  it("is at most half a unit away and never after the label changes", () => {
    const iso = "2026-11-30T09:00:00Z";
    const at = Date.parse(iso);
    for (let now = at + 5_000; now < at + 9 * 86_400_000; now += 23 * 60_000 + 7_000) {
      const next = relativeNextChange(iso, now);
      const label = relativeTime(iso, new Date(now), "en");
      expect(next).toBeGreaterThan(now);
      expect(relativeTime(iso, new Date(next - 1_000), "en"), new Date(now).toISOString()).toBe(label);
    }
  });

  it("a skill changed days ago wakes the clock in hours, not minutes", () => {
    const now = Date.parse("2026-11-30T15:00:00Z");
    expect(relativeNextChange("2026-11-27T15:00:00Z", now) - now).toBeGreaterThanOrEqual(3_600_000);
  });
});
