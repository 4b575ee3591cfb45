import { describe, expect, it } from "vitest";
import { fateCounts, markedLine } from "./clients";

describe("markedLine", () => {
  it("splits the listing around the skill's line", () => {
    const text = "- delivery: Track a parcel.\n- refunds: Refund a charge.\n- returns: Take an item back.";
    expect(markedLine(text, "refunds")).toEqual({
      before: "- delivery: Track a parcel.\n",
      line: "- refunds: Refund a charge.",
      after: "\n- returns: Take an item back.",
    });
  });

  it("finds a skill listed by name alone", () => {
    expect(markedLine("- a\n- refunds", "refunds")?.line).toBe("- refunds");
  });

  it("does not take a skill whose name only starts the same", () => {
    expect(markedLine("- refunds-eu: Refunds in Europe.", "refunds")).toBeNull();
  });
});

describe("fateCounts", () => {
  it("counts each fate", () => {
    const entry = (fate: "kept" | "shortened" | "left_out" | "not_listed") => ({ name: fate, fate, full_chars: 1, shown_chars: 1 });
    expect(fateCounts([entry("kept"), entry("kept"), entry("shortened"), entry("left_out"), entry("not_listed")])).toEqual({
      kept: 2,
      shortened: 1,
      left: 1,
      hidden: 1,
    });
  });
});
