// Settings → Agents (MCP): how an agent's host connects, the clients connected right now and
// the `mcp-clients-changed` event.
import type { UnlistenFn } from "@tauri-apps/api/event";
import { listenTo } from "../bindings/events";
import type { McpClient } from "../bindings/McpClient";
import type { McpSetup } from "../bindings/McpSetup";
import type { McpTransport } from "../bindings/McpTransport";
import * as commands from "../bindings/commands";

export type { McpClient, McpSetup, McpTransport };

/** The stdio command an agent's host starts, and the Streamable HTTP URL while the API listens. */
export function getMcpSetup(): Promise<McpSetup> {
  return commands.mcpSetup();
}

/** The MCP clients connected right now (over stdio from any process on this data directory, or HTTP). */
export function getMcpClients(): Promise<McpClient[]> {
  return commands.mcpClients();
}

/** Calls `handler` whenever an MCP client connects or goes away. */
export function onMcpClientsChanged(handler: () => void): Promise<UnlistenFn> {
  return listenTo("mcp-clients-changed", () => handler());
}
