// The activation chart's numbers: a continuous run of days (missing days are zero) and the bar
// geometry, kept out of the component so they can be tested without drawing.

/** Activations of one skill on one UTC day (`YYYY-MM-DD`). */
export type DayCount = { day: string; hard: number; probe: number };

/** `YYYY-MM-DD` of `date` in UTC. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The `days` days ending with `lastDay` (inclusive), oldest first, each with the counts from
 * `rows` or zeros. Rows outside the window are ignored.
 */
export function fillDays(rows: readonly DayCount[], lastDay: string, days = 30): DayCount[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const end = Date.parse(`${lastDay}T00:00:00Z`);
  const out: DayCount[] = [];
  for (let back = days - 1; back >= 0; back--) {
    const day = utcDay(new Date(end - back * 86_400_000));
    const row = byDay.get(day);
    out.push({ day, hard: row?.hard ?? 0, probe: row?.probe ?? 0 });
  }
  return out;
}

/** One stacked bar: hard at the bottom, probe above it, in chart coordinates (y grows down). */
export type Bar = { day: string; x: number; width: number; hardY: number; hardH: number; probeY: number; probeH: number };

/**
 * Lays out stacked bars in a `width` x `height` box. The tallest day fills the height; with no
 * activations at all every bar is empty. `gap` is the space between bars.
 */
export function layoutBars(series: readonly DayCount[], width: number, height: number, gap = 2): { bars: Bar[]; max: number } {
  const max = Math.max(0, ...series.map((d) => d.hard + d.probe));
  const slot = series.length ? width / series.length : 0;
  const scale = max ? height / max : 0;
  const bars = series.map((d, i) => {
    const hardH = d.hard * scale;
    const probeH = d.probe * scale;
    return {
      day: d.day,
      x: i * slot + gap / 2,
      width: Math.max(0, slot - gap),
      hardY: height - hardH,
      hardH,
      probeY: height - hardH - probeH,
      probeH,
    };
  });
  return { bars, max };
}

/** Totals over the series, for the chart's caption. */
export function totals(series: readonly DayCount[]): { hard: number; probe: number } {
  return series.reduce((t, d) => ({ hard: t.hard + d.hard, probe: t.probe + d.probe }), { hard: 0, probe: 0 });
}
