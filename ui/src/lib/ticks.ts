// When a label that counts time ("3 min", "2h 10m", "5 minutes ago") next changes, so the shared
// clock (clock.svelte.ts) can sleep until then.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The step of a label in its largest whole unit ("3 min", "2 h", "4 d"), at a distance of `d` ms. */
export const largestUnit = (d: number): number => (d < HOUR ? MINUTE : d < DAY ? HOUR : DAY);
/** The step of a label in two units at most ("2h 10m", "3d 4h"). */
export const twoUnits = (d: number): number => (d < DAY ? MINUTE : HOUR);

/**
 * When a label counting the time between `at` and the clock next changes after `now` (both ms),
 * given the step the label moves by at each distance. Never later than the real change, at most
 * one step earlier; the moment `at` is passed counts as a change (due → overdue).
 */
export function nextChange(at: number, now: number, stepOf: (distance: number) => number): number {
  const distance = Math.abs(now - at);
  const step = stepOf(distance);
  const steps = Math.floor(distance / step);
  if (now >= at) return at + (steps + 1) * step;
  const next = at - steps * step;
  return next > now ? next : now + 1;
}
