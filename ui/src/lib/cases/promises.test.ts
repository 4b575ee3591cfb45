import { describe, expect, it } from "vitest";
import { promiseClock, quoteParts } from "./promises";

const NOW = Date.parse("2026-12-01T12:00:00.000Z");

describe("a promise's clock", () => {
  it("counts down in minutes under an hour", () => {
    expect(promiseClock("2026-12-01T12:40:00.000Z", NOW)).toEqual({ overdue: false, unit: "min", n: 40 });
  });

  it("counts whole hours under a day", () => {
    expect(promiseClock("2026-12-01T17:59:00.000Z", NOW)).toEqual({ overdue: false, unit: "h", n: 5 });
  });

  it("counts whole days from a day on", () => {
    expect(promiseClock("2026-12-04T13:00:00.000Z", NOW)).toEqual({ overdue: false, unit: "d", n: 3 });
  });

  it("says overdue once the time has passed", () => {
    expect(promiseClock("2026-12-01T10:30:00.000Z", NOW)).toEqual({ overdue: true, unit: "h", n: 1 });
  });

  it("never shows zero minutes", () => {
    expect(promiseClock("2026-12-01T12:00:20.000Z", NOW)).toEqual({ overdue: false, unit: "min", n: 1 });
  });
});

describe("a promise's words", () => {
  const quote = "A Letícia te liga amanhã cedo.";

  it("are cut around who, when and what", () => {
    const parts = quoteParts(quote, [
      { role: "action", start: 10, end: 17, text: "te liga" },
      { role: "actor", start: 0, end: 9, text: "A Letícia" },
    ]);
    expect(parts).toEqual([
      { text: "A Letícia", role: "actor" },
      { text: " ", role: null },
      { text: "te liga", role: "action" },
      { text: " amanhã cedo.", role: null },
    ]);
  });

  it("count characters, not UTF-16 units, so an emoji does not shift the marks", () => {
    const parts = quoteParts("🙂 Te ligamos amanhã.", [{ role: "action", start: 2, end: 12, text: "Te ligamos" }]);
    expect(parts.map((p) => p.text)).toEqual(["🙂 ", "Te ligamos", " amanhã."]);
  });

  it("ignore a span that overlaps an earlier one or runs past the end", () => {
    const parts = quoteParts("Ligamos já.", [
      { role: "action", start: 0, end: 7, text: "Ligamos" },
      { role: "deferral", start: 3, end: 9, text: "amos j" },
      { role: "actor", start: 8, end: 99, text: "?" },
    ]);
    expect(parts).toEqual([
      { text: "Ligamos", role: "action" },
      { text: " já.", role: null },
    ]);
  });

  it("stay whole without spans", () => {
    expect(quoteParts(quote, [])).toEqual([{ text: quote, role: null }]);
  });
});
