//! What the install actions take and answer, shared with the UI as generated TypeScript.

use serde::{Deserialize, Serialize};
use skillcase_common::ErrorBody;
use skillcase_library::install::ecosystem::OtherInstall;
use skillcase_library::install::git::PinChange;
use skillcase_library::install::{Agent, FileDrift, SkillSource, SourceState, SyncOutcome};
use ts_rs::TS;

/// One place to install into: an agent's skills folder at user level (under the home folder)
/// or in a project folder.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct InstallTarget {
    pub agent: Agent,
    /// The project folder; `null` for user level (`~/.claude/skills`, ...).
    pub project: Option<String>,
}

/// What an install did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct InstallReport {
    /// The skill's name: the installed folder's name.
    pub name: String,
    /// The library version copied; `null` for a skill installed from a folder.
    #[ts(type = "number | null")]
    pub version: Option<i64>,
    pub source: SkillSource,
    /// How many files were copied (junk and caches left out).
    pub files: u32,
    /// Every target written, in the order given.
    pub places: Vec<InstalledPlace>,
}

/// One target an install wrote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct InstalledPlace {
    pub target: InstallTarget,
    /// Every agent that reads this folder at this level (the target's agent among them).
    pub agents: Vec<Agent>,
    /// The agent's skills folder (absolute).
    pub dir: String,
    /// True when a folder of that name was there and was replaced.
    pub replaced: bool,
    /// True when a link to the shared folder's copy was put there instead of a copy (`--link`).
    pub linked: bool,
    /// Files a person had added to the copy installed before, carried into the new copy.
    pub kept: Vec<String>,
}

/// How an installed copy stands, for the skill view's badge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum InstallState {
    /// The installed files are what was copied, and the source has not moved (or is unknown).
    InSync,
    /// Someone changed the installed files (checked before `outdated`: it needs a person).
    Drifted,
    /// The installed files are intact, but the source moved ahead since the copy.
    Outdated,
}

/// Whether a skill is installed in one known place.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct InstallPlace {
    pub target: InstallTarget,
    /// Every agent that reads this folder at this level (the target's agent among them).
    pub agents: Vec<Agent>,
    /// The agent's skills folder (absolute).
    pub dir: String,
    /// True when that folder's `skillcase.lock` lists the skill.
    pub installed: bool,
    /// `null` when not installed there.
    pub state: Option<InstallState>,
    /// The library version installed there.
    #[ts(type = "number | null")]
    pub version: Option<i64>,
    /// The installed files that differ from the lock.
    pub drift: Vec<FileDrift>,
}

/// What a sync did, target by target (targets without a lock are left out).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SyncReport {
    pub targets: Vec<TargetSync>,
}

/// One target's sync.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TargetSync {
    pub target: InstallTarget,
    pub dir: String,
    /// Every skill its lock lists, by name.
    pub skills: Vec<SyncedSkill>,
    /// The skills another tool (the `skills` CLI, `gh skill`) installed there, left as they are.
    pub others: Vec<OtherInstall>,
}

/// One installed skill after a sync.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SyncedSkill {
    pub name: String,
    pub outcome: SyncOutcome,
    /// The drift found (undone unless the outcome is `source_missing`).
    pub drift: Vec<FileDrift>,
    /// The library version installed now.
    #[ts(type = "number | null")]
    pub version: Option<i64>,
    /// Files a person had added, kept in the repaired copy.
    pub kept: Vec<String>,
}

/// What a verify found, target by target (targets without a lock are left out).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct VerifyReport {
    /// True when no installed skill drifted and none is outdated.
    pub clean: bool,
    pub targets: Vec<TargetVerify>,
}

/// One target's verify.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TargetVerify {
    pub target: InstallTarget,
    pub dir: String,
    pub skills: Vec<VerifiedSkill>,
    /// The skills another tool (the `skills` CLI, `gh skill`) installed there, checked against
    /// its lock; one that drifted makes the report unclean.
    pub others: Vec<OtherInstall>,
}

/// One installed skill checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct VerifiedSkill {
    pub name: String,
    /// The installed files that differ from the lock.
    pub drift: Vec<FileDrift>,
    /// `changed` means outdated: the source moved ahead since the copy.
    pub source: SourceState,
}

impl VerifiedSkill {
    /// True when the copy drifted or its source moved ahead.
    pub fn is_clean(&self) -> bool {
        self.drift.is_empty() && self.source != SourceState::Changed
    }
}

/// One agent folder a library skill is installed in, for the inventory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct InventoryPlace {
    pub target: InstallTarget,
    /// The agent's skills folder (absolute).
    pub dir: String,
    pub state: InstallState,
    /// The library version copied there.
    #[ts(type = "number | null")]
    pub version: Option<i64>,
}

/// One agent of the table, as `skillcase agents` and the *Install to…* dialog show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AgentHost {
    /// The id on the command line.
    pub id: Agent,
    pub name: String,
    /// Its skills folder in a project (`.agents/skills`, …).
    pub project_folder: String,
    /// The folder a user-level install writes, relative to the home folder; `null` when the
    /// agent reads skills only from projects.
    pub user_folder: Option<String>,
    /// Every folder it reads under the home folder (`~/…`).
    pub user_folders: Vec<String>,
    /// Whether it loads a linked skill folder; `null` when not known.
    pub follows_links: Option<bool>,
    /// Whether its config folder is in this machine's home folder.
    pub detected: bool,
    /// Where the table's facts about it come from.
    pub source: String,
}

impl AgentHost {
    /// The view of `agent`, detected or not.
    pub fn of(agent: Agent, detected: bool) -> AgentHost {
        let info = agent.info();
        AgentHost {
            id: agent,
            name: info.name.clone(),
            project_folder: info.project.clone(),
            user_folder: agent.user_folder().map(str::to_string),
            user_folders: info.user.clone(),
            follows_links: info.follows_links,
            detected,
            source: info.source.clone(),
        }
    }
}

/// A skill another tool installed in one agent folder, for the inventory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct OtherPlace {
    pub target: InstallTarget,
    /// The agent folder (absolute).
    pub dir: String,
    pub skill: OtherInstall,
}

/// What an adopt recorded, and what it refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AdoptReport {
    pub adopted: Vec<AdoptedSkill>,
    pub refused: Vec<RefusedAdoption>,
}

/// A folder now listed in its `skillcase.lock`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AdoptedSkill {
    pub target: InstallTarget,
    /// The agent folder (absolute).
    pub dir: String,
    pub name: String,
    /// What sync will bring it back to: the library skill of its name, or the folder itself.
    pub source: SkillSource,
}

/// A folder adopt could not record, with why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RefusedAdoption {
    pub target: InstallTarget,
    pub dir: String,
    pub name: String,
    pub error: ErrorBody,
}

/// A git-sourced skill whose branch moved past its pin: what `skillcase update` shows before it
/// moves anything, and what it did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PinUpdate {
    pub target: InstallTarget,
    /// The agent folder (absolute).
    pub dir: String,
    pub name: String,
    pub url: String,
    /// The branch or tag followed (`null`: the default branch).
    pub reference: Option<String>,
    /// The pinned commit.
    pub from: String,
    /// The commit the branch is at now.
    pub to: String,
    /// Every file that would change, with its diff.
    pub changes: Vec<PinChange>,
    /// `null` until applied.
    pub outcome: Option<PinOutcome>,
}

/// What applying a pin update did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum PinOutcome {
    /// Copied again from the new commit; the lock is pinned to it.
    Moved,
    /// The installed copy has changes of its own: nothing written (adopt or undo them first).
    HeldBack,
}
