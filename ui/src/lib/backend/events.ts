// The shell's events a view listens to, each handed to its handler in the shape the view uses.
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

/** Skill folders changed (`skill-changed` / `skill-removed`) or the view fell behind (`events-lagged`). */
export async function onSkillsChanged(handler: (change: { kind: "changed" | "removed" | "lagged"; name?: string }) => void): Promise<UnlistenFn> {
  const offs = await Promise.all([
    listenTo("skill-changed", (e) => handler({ kind: "changed", name: e.name })),
    listenTo("skill-removed", (e) => handler({ kind: "removed", name: e.name })),
    listenTo("events-lagged", () => handler({ kind: "lagged" })),
  ]);
  return () => offs.forEach((off) => off());
}

/** Progress of the start-up scan of a large skills directory. */
export function onScanProgress(handler: (progress: { done: number; total: number }) => void): Promise<UnlistenFn> {
  return listenTo("scan-progress", (e) => handler({ done: e.done, total: e.total }));
}

/** The skills directory became unreadable (with why) or came back. */
export function onSkillsDirStatus(handler: (status: { available: boolean; message: string | null }) => void): Promise<UnlistenFn> {
  return listenTo("skills-dir-status", (e) => handler({ available: e.available, message: e.message }));
}

/** Calls `handler` whenever a setting changes (from this window or another). */
export function onSettingsChanged(handler: () => void): Promise<UnlistenFn> {
  return listenTo("settings-changed", () => handler());
}

/** Calls `handler` whenever an MCP client connects or goes away. */
export function onMcpClientsChanged(handler: () => void): Promise<UnlistenFn> {
  return listenTo("mcp-clients-changed", () => handler());
}
