//! Install to agents (SPEC D6): copying a skill into the folders agents read skills from
//! (`.claude/skills`, `.agents/skills`, … at user or project level), recording every copy in
//! the folder's `skillcase.lock`, and later finding and undoing drift.
//!
//! Module map: [`targets`] (the agents and their folders), [`source`] (the skill to copy,
//! read and checked), [`copy`] (the atomic folder copy), [`lock`] (`skillcase.lock`),
//! [`drift`] (installed files against the lock). This module holds the three operations —
//! [`install`], [`check`] and [`sync`] — over one target folder; which folders, and where a
//! library skill lives, are the application's business.
//!
//! Two rules hold everywhere: a folder the lock does not list is never written (unless an
//! install is forced), and nothing is ever half written (copies are staged then renamed, the
//! lock is replaced whole). Within one process the lock's read-modify-write is serialised.

pub mod copy;
pub mod drift;
pub mod error;
pub mod lock;
pub mod source;
pub mod targets;

#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub use drift::{DriftKind, FileDrift};
pub use error::InstallError;
pub use lock::{Lock, LockedSkill, SkillSource, LOCK_FILE};
pub use source::SourceSkill;
pub use targets::Agent;

/// Serialises every change to a lock in this process (the window may install while a sync runs).
static WRITING: Mutex<()> = Mutex::new(());

/// Finds the current content of an installed skill's source: `None` when it is gone, cannot be
/// read or is no longer a valid skill.
pub type Resolve<'a> = &'a dyn Fn(&str, &SkillSource) -> Option<SourceSkill>;

/// How an installed skill's source stands against what was copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum SourceState {
    /// The source holds what was copied.
    Same,
    /// The source moved ahead since the copy (its files' digests differ from the lock).
    Changed,
    /// The source is gone, unreadable or no longer a valid skill.
    Missing,
}

/// One installed skill checked against its lock and its source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillCheck {
    pub name: String,
    /// The lock's entry.
    pub locked: LockedSkill,
    /// The installed files that differ from the lock, sorted by path.
    pub drift: Vec<FileDrift>,
    pub source: SourceState,
}

/// What a sync did to one installed skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum SyncOutcome {
    /// Installed files and source both matched the lock: nothing written.
    Unchanged,
    /// The source moved ahead: copied again from it, lock updated.
    Updated,
    /// The installed files drifted from an unchanged source: copied again, lock unchanged.
    Repaired,
    /// The source is gone or no longer valid: the installed copy was left as it is.
    SourceMissing,
}

/// One installed skill after a sync.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Synced {
    pub name: String,
    pub outcome: SyncOutcome,
    /// The drift found before the sync (undone unless the source is missing).
    pub drift: Vec<FileDrift>,
    /// The library version now installed (`None` for a folder source).
    pub version: Option<i64>,
}

/// Refuses (`install_conflict`) when `target_dir` holds a folder `name` its lock does not list,
/// unless `force`; lets an application check every target before it writes to any.
pub fn preflight(target_dir: &Path, name: &str, force: bool) -> Result<(), InstallError> {
    let lock = lock::read(target_dir)?.unwrap_or_default();
    check_free(target_dir, name, &lock, force)
}

fn check_free(target_dir: &Path, name: &str, lock: &Lock, force: bool) -> Result<(), InstallError> {
    let taken = std::fs::symlink_metadata(target_dir.join(name)).is_ok();
    if taken && !force && !lock.skills.contains_key(name) {
        return Err(InstallError::Conflict {
            target: target_dir.display().to_string(),
            name: name.to_string(),
        });
    }
    Ok(())
}

/// Copies `skill` into `target_dir` as the folder of its name and records it in the lock
/// (installed at `now`). Returns whether a folder of that name was replaced. The lock is written
/// first and put back if the copy fails, so a crash in between leaves drift that sync repairs,
/// never an installed folder the lock does not know.
pub fn install(target_dir: &Path, skill: &SourceSkill, force: bool, now: &str) -> Result<bool, InstallError> {
    let _writing = WRITING.lock().unwrap_or_else(|p| p.into_inner());
    let before = lock::read(target_dir)?;
    let mut lock = before.clone().unwrap_or_default();
    check_free(target_dir, &skill.name, &lock, force)?;
    let replaced = std::fs::symlink_metadata(target_dir.join(&skill.name)).is_ok();
    lock.skills.insert(
        skill.name.clone(),
        LockedSkill {
            version: skill.version,
            source: skill.source.clone(),
            installed_at: now.to_string(),
            files: skill.digests(),
        },
    );
    std::fs::create_dir_all(target_dir).map_err(InstallError::io(target_dir))?;
    lock::write(target_dir, &lock)?;
    if let Err(error) = copy::place(target_dir, &skill.name, &skill.package) {
        let _ = match &before {
            Some(previous) => lock::write(target_dir, previous),
            None => std::fs::remove_file(lock::lock_path(target_dir)).map_err(InstallError::io(target_dir)),
        };
        return Err(error);
    }
    Ok(replaced)
}

/// Every skill the lock of `target_dir` lists, checked against its installed files and its
/// source; empty when the folder has no lock.
pub fn check(target_dir: &Path, resolve: Resolve<'_>) -> Result<Vec<SkillCheck>, InstallError> {
    let Some(lock) = lock::read(target_dir)? else { return Ok(Vec::new()) };
    Ok(lock
        .skills
        .into_iter()
        .map(|(name, locked)| check_skill(target_dir, name, locked, resolve).0)
        .collect())
}

/// The skill `name` of `target_dir`'s lock checked, or `None` when the lock does not list it.
pub fn check_one(
    target_dir: &Path,
    name: &str,
    resolve: Resolve<'_>,
) -> Result<Option<SkillCheck>, InstallError> {
    let Some(mut lock) = lock::read(target_dir)? else { return Ok(None) };
    Ok(lock.skills.remove(name).map(|locked| check_skill(target_dir, name.to_string(), locked, resolve).0))
}

fn check_skill(
    target_dir: &Path,
    name: String,
    locked: LockedSkill,
    resolve: Resolve<'_>,
) -> (SkillCheck, Option<SourceSkill>) {
    let drift = drift::drift_of(&target_dir.join(&name), &locked.files);
    let current = resolve(&name, &locked.source);
    let source = match &current {
        None => SourceState::Missing,
        Some(skill) if skill.digests() != locked.files => SourceState::Changed,
        Some(_) => SourceState::Same,
    };
    (SkillCheck { name, locked, drift, source }, current)
}

/// Brings every skill the lock of `target_dir` lists back to its source: a skill whose source
/// moved ahead is copied again and its lock entry updated; one whose installed files drifted is
/// copied again from its unchanged source; every other one — and every folder the lock does not
/// list — is left untouched. The lock is rewritten after each update, so a failure part way
/// keeps what was done.
pub fn sync(target_dir: &Path, resolve: Resolve<'_>, now: &str) -> Result<Vec<Synced>, InstallError> {
    let _writing = WRITING.lock().unwrap_or_else(|p| p.into_inner());
    let Some(mut lock) = lock::read(target_dir)? else { return Ok(Vec::new()) };
    let mut done = Vec::new();
    for (name, locked) in lock.skills.clone() {
        let (check, current) = check_skill(target_dir, name, locked, resolve);
        let outcome = match (&current, check.source) {
            (None, _) => SyncOutcome::SourceMissing,
            (Some(skill), SourceState::Changed) => {
                copy::place(target_dir, &check.name, &skill.package)?;
                let entry = LockedSkill {
                    version: skill.version,
                    source: check.locked.source.clone(),
                    installed_at: now.to_string(),
                    files: skill.digests(),
                };
                lock.skills.insert(check.name.clone(), entry);
                lock::write(target_dir, &lock)?;
                SyncOutcome::Updated
            }
            (Some(skill), _) if !check.drift.is_empty() => {
                copy::place(target_dir, &check.name, &skill.package)?;
                SyncOutcome::Repaired
            }
            (Some(_), _) => SyncOutcome::Unchanged,
        };
        let version = lock.skills.get(&check.name).and_then(|l| l.version);
        done.push(Synced { name: check.name, outcome, drift: check.drift, version });
    }
    Ok(done)
}
