//! The skills another tool (the `skills` CLI, `gh skill`) recorded in the shared folder's
//! ecosystem lock, checked the way that tool checks them: the installed folder's hash against the
//! entry's. Only read, never written: they are that tool's to update.

use serde::{Deserialize, Serialize};
use skillcase_skill::load::package_from;
use skillcase_skill::skill_dir::OpenDir;
use ts_rs::TS;

use super::hash::package_hash;
use super::lock::{EcoEntry, EcoLock};
use crate::install::lock::Lock;

/// How a skill another tool installed stands against its entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum OtherState {
    /// The installed folder hashes to the entry's hash.
    InSync,
    /// The installed folder hashes to something else: changed since that tool installed it.
    Drifted,
    /// The entry's hash is not one Skillcase computes (a GitHub tree id) or there is none.
    Unchecked,
}

/// One skill another tool installed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct OtherInstall {
    pub name: String,
    /// Where that tool says it came from (`owner/repo`, a folder, …).
    pub source: String,
    /// That tool's kind of source (`github`, `local`, …).
    pub source_type: String,
    pub state: OtherState,
}

/// Every entry of `eco` that `ours` (the folder's `skillcase.lock`) does not list and whose
/// folder is in the held `target`, checked; an entry whose folder is gone is left out (the
/// `skills` CLI's project `remove` leaves its entry behind).
pub fn others(target: &OpenDir, eco: &EcoLock, ours: Option<&Lock>) -> Vec<OtherInstall> {
    eco.entries()
        .into_iter()
        .filter(|e| !ours.is_some_and(|l| l.skills.contains_key(&e.name)))
        .filter(|e| skillcase_skill::validate::is_skill_name(&e.name) && target.kind_of(&e.name).is_some())
        .map(|e| check(target, e))
        .collect()
}

fn check(target: &OpenDir, entry: EcoEntry) -> OtherInstall {
    let state = match entry.hash.as_deref() {
        Some(hash) if hash.len() == 64 => {
            match target.skill_dir(&entry.name).ok().and_then(|d| package_from(d).ok()) {
                Some(pkg) if package_hash(&pkg) == hash => OtherState::InSync,
                _ => OtherState::Drifted,
            }
        }
        _ => OtherState::Unchecked,
    };
    OtherInstall { name: entry.name, source: entry.source, source_type: entry.source_type, state }
}
