import { describe, expect, it } from "vitest";
import { relativeTime } from "./time";

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
