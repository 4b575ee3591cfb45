// Native dialogs, opened by Rust (tauri-plugin-dialog) so the web view needs no dialog permission.
import * as commands from "../bindings/commands";

/** The native folder picker, starting at `start`; `null` when the person cancels. */
export function pickFolder(title: string, start?: string): Promise<string | null> {
  return commands.pickFolder({ title, start: start ?? null });
}

/** The native save dialog, proposing `defaultName`; `null` when the person cancels. */
export function pickSaveFile(title: string, defaultName: string, filterName: string, extensions: string[]): Promise<string | null> {
  return commands.pickSaveFile({ title, defaultName, filterName, extensions });
}

/** The native open dialog, offering files ending in `extensions`; `null` when the person cancels. */
export function pickOpenFile(title: string, filterName: string, extensions: string[]): Promise<string | null> {
  return commands.pickOpenFile({ title, filterName, extensions });
}
