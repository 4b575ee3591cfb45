//! Install to agents (SPEC D6): copying a skill into the folders agents read skills from
//! (`.claude/skills`, `.agents/skills`, … at user or project level), recording every copy in
//! the folder's `skillcase.lock`, and later finding and undoing drift.
//!
//! Module map: [`agents`] (the agents table and their folders), [`source`] (the skill to copy,
//! read and checked), [`copy`] (the atomic folder copy), [`lock`] (`skillcase.lock`),
//! [`drift`] (installed files against the lock). This module holds the three operations —
//! [`install`], [`check`] and [`sync`] — over one target folder; which folders, and where a
//! library skill lives, are the application's business.
//!
//! Three rules hold everywhere: a folder the lock does not list is never written (unless an
//! install is forced); nothing is ever half written (copies are staged then renamed, the lock is
//! replaced whole); and every read and write goes through the target folder's handle
//! ([`OpenDir`]), never following a link, with the lock's skill names checked to be names when it
//! is read, so neither a hostile lock nor a planted link reaches outside the target folder.
//! Within one process the lock's read-modify-write is serialised.

pub mod agents;
pub mod copy;
pub mod drift;
pub mod ecosystem;
pub mod error;
pub mod git;
pub mod lock;
pub mod source;

#[cfg(test)]
mod tests;

use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub use agents::{Agent, AgentInfo};
pub use drift::{DriftKind, FileDrift};
pub use error::InstallError;
pub use lock::{Lock, LockedSkill, SkillSource, LOCK_FILE};
use skillcase_skill::load::{package_from, LoadError};
use skillcase_skill::package::{Package, PackageFile};
pub use skillcase_skill::skill_dir::OpenDir;
pub use source::SourceSkill;

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
    /// The source moved ahead, but the installed copy has changes of its own (files edited,
    /// added or deleted by a person): nothing was written, so nothing of theirs is lost. Adopt
    /// the copy as it is (`skillcase adopt`) or undo the changes, then sync again.
    HeldBack,
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
    /// Files a person added to the installed copy (the lock does not list them), carried into the
    /// new copy of a repair instead of being deleted.
    pub kept: Vec<String>,
}

/// What an install wrote into one folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// A folder of that name was there and was replaced.
    pub replaced: bool,
    /// Files a person added to the copy installed before (its lock did not list them), carried
    /// into the new copy instead of being deleted.
    pub kept: Vec<String>,
}

/// Refuses (`install_conflict`) when the target folder holds a folder `name` its lock does not
/// list, unless `force`; lets an application check every target before it writes to any. A
/// target folder that does not exist yet (`None`) has nothing to refuse.
pub fn preflight(target: Option<&OpenDir>, name: &str, force: bool) -> Result<(), InstallError> {
    let Some(target) = target else { return Ok(()) };
    let lock = lock::read(target)?.unwrap_or_default();
    check_free(target, name, &lock, force)
}

fn check_free(target: &OpenDir, name: &str, lock: &Lock, force: bool) -> Result<(), InstallError> {
    let taken = target.kind_of(name).is_some();
    if taken && !force && !lock.skills.contains_key(name) {
        return Err(InstallError::Conflict {
            target: target.path().display().to_string(),
            name: name.to_string(),
        });
    }
    Ok(())
}

/// Copies `skill` into the held target folder as the folder of its name and records it in the
/// lock (installed at `now`). Returns whether a folder of that name was replaced. The lock is
/// written first and put back if the copy fails, so a crash in between leaves drift that sync
/// repairs, never an installed folder the lock does not know.
pub fn install(
    target: &OpenDir,
    skill: &SourceSkill,
    force: bool,
    now: &str,
) -> Result<Placed, InstallError> {
    write_entry(target, skill, None, force, now)
}

/// Links the folder of `skill`'s name in the held target folder to `link` (the canonical copy in
/// the shared folder, installed first) instead of copying, and records it in the lock with the
/// canonical copy's digests: `--link`, for agents that follow a linked skill folder.
pub fn install_link(
    target: &OpenDir,
    skill: &SourceSkill,
    link: &str,
    force: bool,
    now: &str,
) -> Result<Placed, InstallError> {
    write_entry(target, skill, Some(link), force, now)
}

/// The steps both installs share: refuse a folder the lock does not list, write the lock entry,
/// then the copy or the link; the lock is put back if that fails.
fn write_entry(
    target: &OpenDir,
    skill: &SourceSkill,
    link: Option<&str>,
    force: bool,
    now: &str,
) -> Result<Placed, InstallError> {
    let _writing = WRITING.lock().unwrap_or_else(|p| p.into_inner());
    let before = lock::read(target)?;
    let mut lock = before.clone().unwrap_or_default();
    check_free(target, &skill.name, &lock, force)?;
    let replaced = target.kind_of(&skill.name).is_some();
    lock.skills.insert(
        skill.name.clone(),
        LockedSkill {
            link: link.map(str::to_string),
            version: skill.version,
            source: skill.source.clone(),
            installed_at: now.to_string(),
            files: skill.digests(),
        },
    );
    lock::write(target, &lock)?;
    let own = match (link, before.as_ref().and_then(|l| l.skills.get(&skill.name))) {
        (None, Some(listed)) if listed.link.is_none() => own_files(target, &skill.name, &listed.files),
        _ => Vec::new(),
    };
    let kept: Vec<String> =
        own.iter().map(|f| f.path.clone()).filter(|p| skill.package.file(p).is_none()).collect();
    let placed = match link {
        Some(link) => copy::place_link(target, &skill.name, link),
        None => copy::place(target, &skill.name, &with_own_files(&skill.package, own)),
    };
    if let Err(error) = placed {
        let _ = match &before {
            Some(previous) => lock::write(target, previous),
            None => lock::remove(target),
        };
        return Err(error);
    }
    Ok(Placed { replaced, kept })
}

/// Records the skill folder `name` that is already in the held target folder (put there by hand or
/// by another tool) in its lock as it is now, with `source` to sync it from later: from then on
/// verify checks it and sync keeps it, like a skill Skillcase installed. Refused
/// (`adopt_refused`) when there is no such folder, a link or a file is in its place, or the lock
/// already lists it; `install_refused` when the folder is not a valid skill.
pub fn adopt(
    target: &OpenDir,
    name: &str,
    source: SkillSource,
    version: Option<i64>,
    now: &str,
) -> Result<(), InstallError> {
    let _writing = WRITING.lock().unwrap_or_else(|p| p.into_inner());
    let refuse = |reason: &str| InstallError::NotAdoptable {
        target: target.path().display().to_string(),
        name: name.to_string(),
        reason: reason.to_string(),
    };
    if !skillcase_skill::validate::is_skill_name(name) {
        return Err(refuse("it is not a skill name"));
    }
    match target.kind_of(name) {
        Some(skillcase_skill::skill_dir::Kind::Dir) => {}
        None => return Err(refuse("there is no such folder")),
        Some(_) => return Err(refuse("it is not a folder (a link or a file)")),
    }
    let mut lock = lock::read(target)?.unwrap_or_default();
    if lock.skills.contains_key(name) {
        return Err(refuse("its skillcase.lock already lists it"));
    }
    let package = target.skill_dir(name).map_err(LoadError::File).and_then(package_from)?;
    let skill = SourceSkill::checked(package, &target.path().join(name), source.clone(), version)?;
    let entry =
        LockedSkill { link: None, version, source, installed_at: now.to_string(), files: skill.digests() };
    lock.skills.insert(name.to_string(), entry);
    lock::write(target, &lock)
}

/// The files of the installed folder `name` that `listed` (its lock entry's digests) does not
/// name: a person's own, never deleted by a new copy.
fn own_files(target: &OpenDir, name: &str, listed: &drift::Digests) -> Vec<PackageFile> {
    let read = target.skill_dir(name).map_err(LoadError::File).and_then(package_from);
    read.map(|pkg| pkg.files.into_iter().filter(|f| !listed.contains_key(&f.path)).collect())
        .unwrap_or_default()
}

/// `package` with `own` files added where it has no file of that path.
fn with_own_files(package: &Package, own: Vec<PackageFile>) -> Package {
    let mut merged = package.clone();
    for file in own {
        if merged.file(&file.path).is_none() {
            merged.files.push(file);
        }
    }
    merged
}

/// Every skill the lock of the held target folder lists, checked against its installed files and
/// its source; empty when the folder has no lock.
pub fn check(target: &OpenDir, resolve: Resolve<'_>) -> Result<Vec<SkillCheck>, InstallError> {
    let Some(lock) = lock::read(target)? else { return Ok(Vec::new()) };
    Ok(lock.skills.into_iter().map(|(name, locked)| check_skill(target, name, locked, resolve).0).collect())
}

/// The skill `name` of the target folder's lock checked, or `None` when the lock does not list it.
pub fn check_one(
    target: &OpenDir,
    name: &str,
    resolve: Resolve<'_>,
) -> Result<Option<SkillCheck>, InstallError> {
    let Some(mut lock) = lock::read(target)? else { return Ok(None) };
    Ok(lock.skills.remove(name).map(|locked| check_skill(target, name.to_string(), locked, resolve).0))
}

/// `name`'s installed files against the lock, and its source read again (a relative folder
/// source found beside the lock).
fn check_skill(
    target: &OpenDir,
    name: String,
    locked: LockedSkill,
    resolve: Resolve<'_>,
) -> (SkillCheck, Option<SourceSkill>) {
    let drift = match &locked.link {
        Some(link) => drift::drift_of_link(target, &name, link),
        None => drift::drift_of(target, &name, &locked.files),
    };
    let current = resolve(&name, &locked.source.located_in(target.path()));
    let source = match &current {
        None => SourceState::Missing,
        Some(skill) if skill.digests() != locked.files => SourceState::Changed,
        Some(_) => SourceState::Same,
    };
    (SkillCheck { name, locked, drift, source }, current)
}

/// Brings every skill the lock of the held target folder lists back to its source: a skill whose source
/// moved ahead is copied again and its lock entry updated; one whose installed files drifted is
/// copied again from its unchanged source; every other one — and every folder the lock does not
/// list — is left untouched. The lock is rewritten after each update, so a failure part way
/// keeps what was done.
pub fn sync(target: &OpenDir, resolve: Resolve<'_>, now: &str) -> Result<Vec<Synced>, InstallError> {
    let _writing = WRITING.lock().unwrap_or_else(|p| p.into_inner());
    let Some(mut lock) = lock::read(target)? else { return Ok(Vec::new()) };
    let mut done = Vec::new();
    for (name, locked) in lock.skills.clone() {
        let (check, current) = check_skill(target, name, locked, resolve);
        let mut kept = Vec::new();
        let own_changes = check.drift.iter().any(|d| d.kind != DriftKind::Link);
        let outcome = match (&current, check.source) {
            (None, _) => SyncOutcome::SourceMissing,
            (Some(_), SourceState::Changed) if own_changes => SyncOutcome::HeldBack,
            (Some(skill), SourceState::Changed) => {
                match &check.locked.link {
                    Some(link) if !check.drift.is_empty() => copy::place_link(target, &check.name, link)?,
                    Some(_) => {}
                    None => copy::place(target, &check.name, &skill.package)?,
                }
                let entry = LockedSkill {
                    link: check.locked.link.clone(),
                    version: skill.version,
                    source: check.locked.source.clone(),
                    installed_at: now.to_string(),
                    files: skill.digests(),
                };
                lock.skills.insert(check.name.clone(), entry);
                lock::write(target, &lock)?;
                SyncOutcome::Updated
            }
            (Some(skill), _) if !check.drift.is_empty() => {
                match &check.locked.link {
                    Some(link) => copy::place_link(target, &check.name, link)?,
                    None => {
                        let own = own_files(target, &check.name, &check.locked.files);
                        kept = own
                            .iter()
                            .map(|f| f.path.clone())
                            .filter(|p| skill.package.file(p).is_none())
                            .collect();
                        copy::place(target, &check.name, &with_own_files(&skill.package, own))?
                    }
                }
                SyncOutcome::Repaired
            }
            (Some(_), _) => SyncOutcome::Unchanged,
        };
        let version = lock.skills.get(&check.name).and_then(|l| l.version);
        done.push(Synced { name: check.name, outcome, drift: check.drift, version, kept });
    }
    Ok(done)
}
