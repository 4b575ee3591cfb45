// The case events: a case opened, changed or overdue, and the event stream falling behind.
import type { UnlistenFn } from "@tauri-apps/api/event";
import { listenTo } from "../bindings/events";

/** Calls `handler` with the id of each case the agent or the guardrail opens. */
export function onCaseOpened(handler: (id: string) => void): Promise<UnlistenFn> {
  return listenTo("case-opened", (event) => handler(event.id));
}

/** Calls `handler` with the id of each case whose status, timeline or delivery changed. */
export function onCaseChanged(handler: (id: string) => void): Promise<UnlistenFn> {
  return listenTo("case-changed", (event) => handler(event.id));
}

/** Calls `handler` with the id of each case whose promise to the customer fell due unanswered. */
export function onPromiseOverdue(handler: (id: string) => void): Promise<UnlistenFn> {
  return listenTo("promise-overdue", (event) => handler(event.id));
}

/** Calls `handler` when events were dropped and every view should reload. */
export function onEventsLagged(handler: () => void): Promise<UnlistenFn> {
  return listenTo("events-lagged", () => handler());
}
