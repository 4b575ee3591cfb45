//! The agents Skillcase installs into, from one table of data (`data/agents.json`): for each
//! agent its id, the skills folder it reads in a project and under the home folder, whether it
//! follows a linked skill folder, how to tell it is installed, and where those facts come from.
//! The table is data so that a new agent is one entry, and `docs/install.md` prints it whole.
//!
//! Most agents now read the standard's project folder `.agents/skills`; user folders stay per
//! agent. A user-level install writes `~/.agents/skills` when the agent reads it there, else the
//! agent's first user folder (the one its installer uses).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

/// The standard's shared skills folder, in a project and under the home folder.
pub const SHARED_FOLDER: &str = ".agents/skills";
const SHARED_USER_FOLDER: &str = "~/.agents/skills";

/// Former command-line names, still accepted: the five targets before the table.
const ALIASES: [(&str, &str); 3] =
    [("claude", "claude-code"), ("github", "github-copilot"), ("agents", "universal")];

/// One row of the agents table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentInfo {
    /// The id on the command line and in locks, as the `skills` CLI names the agent.
    pub id: String,
    /// The agent's product name.
    pub name: String,
    /// The skills folder relative to a project folder.
    pub project: String,
    /// The skills folders it reads under the home folder (`~/…`), its installer's first.
    pub user: Vec<String>,
    /// Paths under the home folder whose presence says the agent is installed.
    pub detect: Vec<String>,
    /// Whether it loads a skill folder that is a symbolic link (`None`: not known).
    pub follows_links: Option<bool>,
    /// Where these facts come from (URLs separated by ` ; `).
    pub source: String,
    /// What the sources disagree on, and why the row says what it says.
    pub notes: String,
}

static TABLE: LazyLock<Vec<AgentInfo>> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../data/agents.json"))
        .expect("data/agents.json is checked by its tests")
});

/// An agent of the table. Serialised as its id; read from its id or a former name.
#[derive(Clone, Copy)]
pub struct Agent(&'static AgentInfo);

impl Agent {
    /// Every agent, in the table's order.
    pub fn all() -> impl Iterator<Item = Agent> {
        TABLE.iter().map(Agent)
    }

    /// The agent with this id (or former name: `claude`, `github`, `agents`).
    pub fn find(id: &str) -> Option<Agent> {
        let id = ALIASES.iter().find(|(old, _)| *old == id).map_or(id, |(_, new)| new);
        TABLE.iter().find(|a| a.id == id).map(Agent)
    }

    /// The pseudo-agent standing for the standard's shared folder.
    pub fn universal() -> Agent {
        Agent::find("universal").expect("the table has the universal row")
    }

    /// The id, as on the command line.
    pub fn as_str(self) -> &'static str {
        &self.0.id
    }

    /// The whole row.
    pub fn info(self) -> &'static AgentInfo {
        self.0
    }

    /// The product name.
    pub fn name(self) -> &'static str {
        &self.0.name
    }

    /// The skills folder relative to a project folder (`.agents/skills`, `.claude/skills`, …).
    pub fn project_folder(self) -> &'static str {
        &self.0.project
    }

    /// The skills folder a user-level install writes, relative to the home folder:
    /// `.agents/skills` when the agent reads it, else its first user folder; `None` for an agent
    /// that reads skills only from projects.
    pub fn user_folder(self) -> Option<&'static str> {
        let shared = self.0.user.iter().find(|u| u.as_str() == SHARED_USER_FOLDER);
        shared.or(self.0.user.first()).map(|u| u.trim_start_matches("~/"))
    }

    /// Whether the agent is known to load a linked skill folder (unknown counts as no).
    pub fn follows_links(self) -> bool {
        self.0.follows_links == Some(true)
    }

    /// Whether the agent reads the standard's shared project folder.
    pub fn reads_shared_folder(self) -> bool {
        self.0.project == SHARED_FOLDER
    }

    /// Whether one of its detect paths exists under `home`.
    pub fn detected_in(self, home: &Path) -> bool {
        self.0.detect.iter().any(|d| join(home, d.trim_start_matches("~/")).exists())
    }

    /// The skills folder of this agent in the project folder `root`.
    pub fn project_dir(self, root: &Path) -> PathBuf {
        join(root, self.project_folder())
    }

    /// The skills folder a user-level install writes under `home`.
    pub fn user_dir(self, home: &Path) -> Option<PathBuf> {
        self.user_folder().map(|folder| join(home, folder))
    }
}

/// `root` joined with a `/`-separated relative folder, part by part.
pub fn join(root: &Path, folder: &str) -> PathBuf {
    folder.split('/').fold(root.to_path_buf(), |dir, part| dir.join(part))
}

impl PartialEq for Agent {
    fn eq(&self, other: &Self) -> bool {
        self.0.id == other.0.id
    }
}

impl Eq for Agent {}

impl PartialOrd for Agent {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Agent {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.id.cmp(&other.0.id)
    }
}

impl std::hash::Hash for Agent {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.id.hash(state)
    }
}

impl fmt::Debug for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Agent({})", self.0.id)
    }
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.id)
    }
}

impl Serialize for Agent {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0.id)
    }
}

impl<'de> Deserialize<'de> for Agent {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = String::deserialize(deserializer)?;
        Agent::find(&id).ok_or_else(|| serde::de::Error::custom(format!("unknown agent `{id}`")))
    }
}

impl ts_rs::TS for Agent {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;
    fn name(_: &ts_rs::Config) -> String {
        "string".into()
    }
    fn inline(_: &ts_rs::Config) -> String {
        "string".into()
    }
}

#[cfg(test)]
#[path = "agents_tests.rs"]
mod tests;
