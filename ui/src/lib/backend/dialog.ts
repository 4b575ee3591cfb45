// Native dialogs, opened by Rust (tauri-plugin-dialog) so the web view needs no dialog permission.
import { call } from "./core";

/** The native folder picker, starting at `start`; `null` when the person cancels. */
export function pickFolder(title: string, start?: string): Promise<string | null> {
  return call<string | null>("pick_folder", { title, start: start ?? null });
}
