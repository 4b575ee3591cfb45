import { describe, expect, it } from "vitest";
import { fillDays, layoutBars, totals } from "./activity";

describe("activity series", () => {
  it("covers every day of the window, oldest first, with zeros for quiet days", () => {
    const series = fillDays([{ day: "2026-11-29", hard: 3, probe: 1 }], "2026-11-30", 3);
    expect(series).toEqual([
      { day: "2026-11-28", hard: 0, probe: 0 },
      { day: "2026-11-29", hard: 3, probe: 1 },
      { day: "2026-11-30", hard: 0, probe: 0 },
    ]);
  });

  it("crosses month ends and ignores days outside the window", () => {
    const series = fillDays([{ day: "2026-10-01", hard: 9, probe: 9 }], "2026-12-01", 30);
    expect(series[0].day).toBe("2026-11-02");
    expect(series.at(-1)?.day).toBe("2026-12-01");
    expect(totals(series)).toEqual({ hard: 0, probe: 0 });
  });

  it("scales the busiest day to the full height and stacks probe above hard", () => {
    const { bars, max } = layoutBars(
      [
        { day: "d1", hard: 2, probe: 2 },
        { day: "d2", hard: 1, probe: 0 },
      ],
      100,
      80,
      0,
    );
    expect(max).toBe(4);
    expect(bars[0]).toMatchObject({ x: 0, width: 50, hardY: 40, hardH: 40, probeY: 0, probeH: 40 });
    expect(bars[1]).toMatchObject({ x: 50, hardY: 60, hardH: 20, probeH: 0 });
  });

  it("draws empty bars when nothing fired", () => {
    const { bars, max } = layoutBars([{ day: "d1", hard: 0, probe: 0 }], 10, 10);
    expect(max).toBe(0);
    expect(bars[0].hardH + bars[0].probeH).toBe(0);
  });
});
