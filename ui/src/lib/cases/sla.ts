// A case's response-time targets as the inbox and the case show them: "First reply due in
// 2h 10m", "Resolution overdue by 35m", "First reply late by 12m" once met late. The state is
// worked out against the shared clock, so a countdown turns overdue without a reload.
import type { CaseSla } from "../bindings/CaseSla";
import type { SlaClock } from "../bindings/SlaClock";
import type { SlaTarget } from "../bindings/SlaTarget";
import { nextChange, twoUnits } from "../ticks";

export type SlaKind = "due" | "overdue" | "paused" | "met" | "late";

/** One target as shown: what it is, where it stands, and the time that goes with it (ms): left
 * when due, past the due time when overdue or late. */
export type SlaView = { target: SlaTarget; kind: SlaKind; ms: number };

const at = (stamp: string) => Date.parse(stamp);

/** Where `clock` stands at `now` (ms), given when the case's clocks were paused. A pause that
 * began after the due time still shows the breach. */
export function slaView(target: SlaTarget, clock: SlaClock, pausedSince: string | null, now: number): SlaView {
  const due = at(clock.due_at);
  if (clock.met_at !== null) {
    const met = at(clock.met_at);
    return met <= due ? { target, kind: "met", ms: due - met } : { target, kind: "late", ms: met - due };
  }
  if (pausedSince !== null) {
    const paused = at(pausedSince);
    return paused >= due ? { target, kind: "overdue", ms: paused - due } : { target, kind: "paused", ms: due - paused };
  }
  return now < due ? { target, kind: "due", ms: due - now } : { target, kind: "overdue", ms: now - due };
}

/** Both targets of a case, first reply first; targets that were off are left out. */
export function slaViews(sla: CaseSla, now: number): SlaView[] {
  const views: SlaView[] = [];
  if (sla.first_reply) views.push(slaView("first_reply", sla.first_reply, sla.paused_since, now));
  if (sla.resolution) views.push(slaView("resolution", sla.resolution, sla.paused_since, now));
  return views;
}

/** What an inbox row shows: the target still counting (the first reply until it is met, then
 * the resolution), and a breach badge for each target met late. */
export function slaRow(sla: CaseSla, now: number): { current: SlaView | null; breaches: SlaView[] } {
  const views = slaViews(sla, now);
  const current = views.find((v) => v.kind === "due" || v.kind === "overdue" || v.kind === "paused") ?? null;
  return { current, breaches: views.filter((v) => v.kind === "late") };
}

/** When a label of `sla` still counting next changes after `now` (ms; Infinity when none counts):
 * minutes under a day, hours beyond, and the moment a target falls due. */
export function slaNextChange(sla: CaseSla, now: number): number {
  const running = [sla.first_reply, sla.resolution].filter(
    (clock): clock is SlaClock => clock != null && clock.met_at === null && sla.paused_since === null,
  );
  return Math.min(Infinity, ...running.map((clock) => nextChange(at(clock.due_at), now, twoUnits)));
}

export type Span = { key: "m" | "hm" | "dh"; d: number; h: number; m: number };

/** A duration as two units at most: minutes (at least one), hours and minutes, days and hours. */
export function span(ms: number): Span {
  const minutes = Math.max(1, Math.floor(Math.abs(ms) / 60_000));
  const h = Math.floor(minutes / 60);
  if (h === 0) return { key: "m", d: 0, h: 0, m: minutes };
  if (h < 24) return { key: "hm", d: 0, h, m: minutes % 60 };
  return { key: "dh", d: Math.floor(h / 24), h: h % 24, m: 0 };
}
