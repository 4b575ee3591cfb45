// Files dragged onto the window, with their absolute paths (for importing skill packages).
import type { UnlistenFn } from "@tauri-apps/api/event";
import { getCurrentWebview } from "@tauri-apps/api/webview";

/** What a drag over the window is doing: files entering, dropped (with absolute paths), or leaving. */
export type DragState = { type: "enter"; paths: string[] } | { type: "over" } | { type: "drop"; paths: string[] } | { type: "leave" };

/** Drag and drop of files on the window (Tauri's `tauri://drag-*` events, with absolute paths). */
export function onFileDrop(handler: (drag: DragState) => void): Promise<UnlistenFn> {
  return getCurrentWebview().onDragDropEvent((event) => {
    const p = event.payload;
    if (p.type === "enter" || p.type === "drop") handler({ type: p.type, paths: p.paths });
    else handler({ type: p.type });
  });
}
