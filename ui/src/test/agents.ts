// A few rows of the agents table as `install_agents` answers, for the install dialog's tests.
import type { AgentHost } from "$lib/bindings/AgentHost";

/** An agent of the table; `detected` says whether its config folder is in the home folder. */
export function host(id: string, name: string, project_folder: string, user_folder: string | null, detected = false): AgentHost {
  return { id, name, project_folder, user_folder, user_folders: user_folder ? [`~/${user_folder}`] : [], follows_links: null, detected, source: "https://example.test" };
}

/** Claude Code and Codex detected; Cursor, Copilot, Amp and Windsurf not. */
export const HOSTS: AgentHost[] = [
  host("amp", "Amp", ".agents/skills", ".config/agents/skills"),
  host("claude-code", "Claude Code", ".claude/skills", ".claude/skills", true),
  host("codex", "Codex", ".agents/skills", ".agents/skills", true),
  host("cursor", "Cursor", ".agents/skills", ".agents/skills"),
  host("github-copilot", "GitHub Copilot", ".agents/skills", ".agents/skills"),
  host("windsurf", "Windsurf", ".windsurf/skills", ".codeium/windsurf/skills"),
  host("universal", "Universal", ".agents/skills", ".agents/skills"),
];
