// "waiting 2 h": how long a case has waited, in the largest whole unit, for the live timers.

export type WaitingUnit = "now" | "min" | "h" | "d";

/** The whole minutes, hours or days between `since` (RFC 3339) and `now` (ms); "now" under a minute. */
export function waitingFor(since: string, now: number): { unit: WaitingUnit; n: number } {
  const minutes = Math.floor((now - Date.parse(since)) / 60_000);
  if (!Number.isFinite(minutes) || minutes < 1) return { unit: "now", n: 0 };
  if (minutes < 60) return { unit: "min", n: minutes };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { unit: "h", n: hours };
  return { unit: "d", n: Math.floor(hours / 24) };
}
