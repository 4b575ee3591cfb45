// What a case promised the customer, as the inbox and the case show it: "due in 2 h" or
// "overdue 1 h", and the promise's words cut around the parts that decided it.
import type { GuardSpan } from "../bindings/GuardSpan";

export type PromiseUnit = "min" | "h" | "d";

export type PromiseClock = { overdue: boolean; unit: PromiseUnit; n: number };

/** How far `dueAt` (RFC 3339) is from `now` (ms): due in, or overdue by, the largest whole unit
 * (at least one minute). */
export function promiseClock(dueAt: string, now: number): PromiseClock {
  const delta = Date.parse(dueAt) - now;
  const overdue = delta < 0;
  const minutes = Math.max(1, Math.floor(Math.abs(delta) / 60_000));
  if (minutes < 60) return { overdue, unit: "min", n: minutes };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { overdue, unit: "h", n: hours };
  return { overdue, unit: "d", n: Math.floor(hours / 24) };
}

export type QuotePart = { text: string; role: GuardSpan["role"] | null };

/** The quote cut into plain text and the spans that decided it (offsets count characters). */
export function quoteParts(quote: string, spans: GuardSpan[]): QuotePart[] {
  const chars = Array.from(quote);
  const sorted = [...spans].filter((s) => s.start < s.end && s.end <= chars.length).sort((a, b) => a.start - b.start);
  const parts: QuotePart[] = [];
  let at = 0;
  for (const span of sorted) {
    if (span.start < at) continue;
    if (span.start > at) parts.push({ text: chars.slice(at, span.start).join(""), role: null });
    parts.push({ text: chars.slice(span.start, span.end).join(""), role: span.role });
    at = span.end;
  }
  if (at < chars.length) parts.push({ text: chars.slice(at).join(""), role: null });
  return parts;
}
