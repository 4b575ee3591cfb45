//! The agents Skillcase installs into and the folder each one reads skills from, the same path
//! at user level (under the home folder) and at project level (under a project folder).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// An agent (or family of agents) that reads skills from a folder of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Agent {
    /// Claude Code: `.claude/skills`.
    Claude,
    /// The cross-agent folder of the Agent Skills standard: `.agents/skills`.
    Agents,
    /// OpenAI Codex: `.codex/skills`.
    Codex,
    /// GitHub Copilot (coding agent, VS Code): `.github/skills`.
    Github,
    /// Cursor: `.cursor/skills`.
    Cursor,
}

impl Agent {
    /// Every target, in the order lists show them.
    pub const ALL: [Agent; 5] = [Agent::Claude, Agent::Agents, Agent::Codex, Agent::Github, Agent::Cursor];

    /// The name on the command line and in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Agents => "agents",
            Agent::Codex => "codex",
            Agent::Github => "github",
            Agent::Cursor => "cursor",
        }
    }

    /// The skills folder relative to the home folder or the project folder.
    pub fn folder(self) -> &'static str {
        match self {
            Agent::Claude => ".claude/skills",
            Agent::Agents => ".agents/skills",
            Agent::Codex => ".codex/skills",
            Agent::Github => ".github/skills",
            Agent::Cursor => ".cursor/skills",
        }
    }

    /// The skills folder of this agent under `root` (a home or a project folder).
    pub fn dir_in(self, root: &Path) -> PathBuf {
        self.folder().split('/').fold(root.to_path_buf(), |dir, part| dir.join(part))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_agent_reads_its_own_dot_folder_under_the_root() {
        let root = Path::new("/home/ana");
        let dirs: Vec<PathBuf> = Agent::ALL.iter().map(|a| a.dir_in(root)).collect();
        assert_eq!(
            dirs,
            [
                "/home/ana/.claude/skills",
                "/home/ana/.agents/skills",
                "/home/ana/.codex/skills",
                "/home/ana/.github/skills",
                "/home/ana/.cursor/skills",
            ]
            .map(PathBuf::from)
        );
    }

    #[test]
    fn an_agent_serialises_as_its_command_line_name() {
        for agent in Agent::ALL {
            assert_eq!(serde_json::to_value(agent).unwrap(), serde_json::json!(agent.as_str()));
        }
    }
}
