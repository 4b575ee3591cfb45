// The handover report's numbers, kept out of the components so they can be tested without
// drawing: the range of whole weeks the person picks, the stacked bars of the chart and the way
// a median time reads.
import type { HandoverReason } from "../bindings/HandoverReason";
import type { ReportRange } from "../bindings/ReportRange";
import type { ReportWeek } from "../bindings/ReportWeek";

/** Every reason, in the order the legend, the chart (bottom up) and the filter list them. */
export const REASONS: readonly HandoverReason[] = [
  "customer_request",
  "missing_knowledge",
  "unsupported_request",
  "policy_restriction",
  "tool_failure",
  "pending_clarification",
  "guardrail_autofallback",
  "not_stated",
];

/** The ranges the report offers, in weeks. */
export const WEEK_CHOICES = [4, 8, 12, 26] as const;

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of `date` in UTC. */
function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The last `weeks` whole weeks up to `today` (UTC): from the Monday `weeks - 1` weeks before
 * this week's Monday, to today. Weeks start on Monday, as the report counts them.
 */
export function lastWeeks(weeks: number, today: Date): ReportRange {
  const day = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
  const monday = day - sinceMonday * DAY_MS;
  return { from: utcDay(new Date(monday - (weeks - 1) * 7 * DAY_MS)), to: utcDay(new Date(day)) };
}

/** One reason's slice of a week's bar, in chart coordinates (y grows down). */
export type Segment = { reason: HandoverReason; cases: number; y: number; height: number };

/** One week's stacked bar. */
export type WeekBar = { week: string; total: number; x: number; width: number; segments: Segment[] };

/**
 * Lays the weeks out as stacked bars in a `width` x `height` box, reasons stacked bottom up in
 * [`REASONS`] order. The busiest week fills the height; with no cases every bar is empty.
 */
export function layoutWeeks(weeks: readonly ReportWeek[], width: number, height: number, gap = 6): { bars: WeekBar[]; max: number } {
  const max = Math.max(0, ...weeks.map((w) => Number(w.total)));
  const slot = weeks.length ? width / weeks.length : 0;
  const scale = max ? height / max : 0;
  const bars = weeks.map((w, i) => {
    let top = height;
    const segments: Segment[] = [];
    for (const reason of REASONS) {
      const cases = Number(w.by_reason.find((c) => c.reason === reason)?.cases ?? 0);
      if (!cases) continue;
      const h = cases * scale;
      top -= h;
      segments.push({ reason, cases, y: top, height: h });
    }
    return { week: w.week, total: Number(w.total), x: i * slot + gap / 2, width: Math.max(0, slot - gap), segments };
  });
  return { bars, max };
}

/** A duration in seconds as its two largest units: `{ unit, n }` pairs the caller words. */
export type DurationParts = { kind: "under_min" } | { kind: "min"; min: number } | { kind: "h"; h: number; min: number } | { kind: "d"; d: number; h: number };

/** How a median reads: under a minute, minutes, hours and minutes, or days and hours. */
export function durationParts(seconds: number): DurationParts {
  if (seconds < 60) return { kind: "under_min" };
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return { kind: "min", min: minutes };
  if (minutes < 24 * 60) return { kind: "h", h: Math.floor(minutes / 60), min: minutes % 60 };
  const hours = Math.round(minutes / 60);
  return { kind: "d", d: Math.floor(hours / 24), h: hours % 24 };
}
