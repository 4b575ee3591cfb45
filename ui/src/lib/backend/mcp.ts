// Settings → Agents (MCP): the `mcp-clients-changed` event.
import type { UnlistenFn } from "@tauri-apps/api/event";
import { listenTo } from "../bindings/events";

/** Calls `handler` whenever an MCP client connects or goes away. */
export function onMcpClientsChanged(handler: () => void): Promise<UnlistenFn> {
  return listenTo("mcp-clients-changed", () => handler());
}
