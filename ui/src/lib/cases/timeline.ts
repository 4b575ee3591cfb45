// The stretches of a case's timeline during which it waited on a person: each starts when the
// case is opened or the agent hands back the lead's answer, and ends when the person answers or
// the case is cancelled. The timeline draws them so "your turn" visibly starts and ends.
import type { CaseEvent } from "../bindings/CaseEvent";

export type StretchMark = "start" | "end" | null;

const STARTS = new Set(["opened", "lead_provided"]);
const ENDS = new Set(["human_replied", "cancelled"]);

/** For each event (same order), whether it starts or ends a stretch with the person, and
 * whether it lies inside one. */
export function humanStretches(events: CaseEvent[]): { mark: StretchMark; inside: boolean }[] {
  let open = false;
  return events.map((event) => {
    if (!open && STARTS.has(event.kind)) {
      open = true;
      return { mark: "start", inside: true };
    }
    if (open && ENDS.has(event.kind)) {
      open = false;
      return { mark: "end", inside: true };
    }
    return { mark: null, inside: open };
  });
}

/** Whole minutes between two RFC 3339 times, at least 0. */
export function minutesBetween(from: string, to: string): number {
  return Math.max(0, Math.floor((Date.parse(to) - Date.parse(from)) / 60_000));
}
