// "Ana is replying" (the team inbox, SPEC D4): the composer holds the case's short lease while its
// person types (at most every RENEW_MS, so a held lease never runs out mid-sentence), and the case
// shows who else is replying while their lease runs.
import type { Replying } from "../bindings/Replying";

/** How often typing renews the lease; the server holds it 15 s from each renewal. */
export const RENEW_MS = 5_000;

/** Whether typing at `now` should renew the lease last renewed at `last` (ms, 0: never). */
export function shouldRenew(last: number, now: number): boolean {
  return last === 0 || now - last >= RENEW_MS;
}

/** Someone other than `me` whose lease still runs at `now` (ms since the epoch), else null. */
export function otherReplying(lease: Replying | null | undefined, me: string | null, now: number): Replying | null {
  if (!lease || lease.person === me) return null;
  return Date.parse(lease.until) > now ? lease : null;
}
