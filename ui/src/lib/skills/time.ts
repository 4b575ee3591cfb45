// "3 minutes ago" / "há 3 minutos" for the list's last-change column.

import { nextChange } from "../ticks";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["week", 7 * 86_400],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** How long ago `iso` was, relative to `now`, in `locale`; "now" under a minute. */
export function relativeTime(iso: string, now: Date, locale: string): string {
  const seconds = Math.round((Date.parse(iso) - now.getTime()) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, "second");
}

/** When the label of `iso` (ms since the epoch: `at`) next changes after `now`: at most half its
 * unit later, since the label rounds to the nearest unit. */
export function relativeNextChange(iso: string, now: number): number {
  const at = Date.parse(iso);
  return nextChange(at, now, (distance) => (unitSize(distance / 1000) * 1000) / 2);
}

/** The unit a label uses at `seconds` away (a minute below a minute: "now" until then). */
function unitSize(seconds: number): number {
  return UNITS.find(([, size]) => seconds >= size)?.[1] ?? 60;
}

/** A date and time in `locale`, for versions ("30/11/2026 14:05"). */
export function dateTime(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "short", timeStyle: "short" }).format(new Date(iso));
}
