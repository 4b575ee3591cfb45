// What Settings → Agents (MCP) offers to copy: the stdio command as one shell line and a ready
// `mcpServers` entry for the hosts that read that JSON (Claude Desktop, Cursor, Claude Code's
// `.mcp.json`, Gemini CLI). Pure, so the exact text is specified by tests.
import type { McpSetup } from "../bindings/McpSetup";

/** A word as a POSIX shell reads it back unchanged: bare when safe, else in single quotes. */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The stdio command as one line to paste into a terminal or a host's "command" field:
 *  the environment it needs first (`SKILLCASE_DATA_DIR=… skillcase mcp`). */
export function commandLine(setup: McpSetup): string {
  const env = Object.entries(setup.env).map(([name, value]) => `${name}=${shellWord(value)}`);
  return [...env, shellWord(setup.command), ...setup.args.map(shellWord)].join(" ");
}

/** The `mcpServers` JSON with Skillcase's stdio entry, `env` only when the command needs one. */
export function configSnippet(setup: McpSetup): string {
  const server: { command: string; args: string[]; env?: Record<string, string> } = {
    command: setup.command,
    args: setup.args,
  };
  if (Object.keys(setup.env).length > 0) server.env = { ...setup.env };
  const text = JSON.stringify({ mcpServers: { skillcase: server } }, null, 2);
  // Lists of plain values on one line, as the hosts' own documentation writes `"args": ["mcp"]`.
  return text.replace(/\[\n\s*((?:"(?:[^"\\]|\\.)*",?\s*)+)\]/g, (_, items: string) =>
    `[${items.trim().split(/,\n\s*/).join(", ")}]`,
  );
}
