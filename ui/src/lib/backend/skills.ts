// The events that keep the skills screens live.
import type { UnlistenFn } from "@tauri-apps/api/event";
import { listenTo } from "../bindings/events";

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
