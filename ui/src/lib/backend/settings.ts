// The `settings-changed` event.
import type { UnlistenFn } from "@tauri-apps/api/event";
import { listenTo } from "../bindings/events";

/** Calls `handler` whenever a setting changes (from this window or another). */
export function onSettingsChanged(handler: () => void): Promise<UnlistenFn> {
  return listenTo("settings-changed", () => handler());
}
