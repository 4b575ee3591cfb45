//! What the install actions take and answer, shared with the UI as generated TypeScript.

use serde::{Deserialize, Serialize};
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
    /// The agent's skills folder (absolute).
    pub dir: String,
    /// True when a folder of that name was there and was replaced.
    pub replaced: bool,
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
