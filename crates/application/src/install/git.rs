//! Git sources for install (`skillcase install git+URL[#branch|@commit] [--skill NAME…]`) and
//! their pins (`skillcase update`): the lock records the commit a skill was copied from, and that
//! pin moves only when a person asks, after seeing what would change. The fetching and reading is
//! the library's (`install::git`, through the system `git` and a mirror under the data
//! directory); this layer picks the skills and the folders.

use std::path::PathBuf;

use skillcase_common::ErrorBody;
use skillcase_library::install::git::{package_diff, skill_folders, GitCache};
use skillcase_library::install::{self, InstallError, SkillSource, SourceSkill};

use super::types::{InstallReport, InstallTarget, PinOutcome, PinUpdate};
use super::{places, PlaceError};
use crate::App;

impl App {
    /// The mirrors of git sources: `<data dir>/git`.
    pub(crate) fn git_cache(&self) -> GitCache {
        GitCache::new(self.data_dir().join("git"))
    }

    /// Installs the skills of the git source `spec` (all of them, or those `names` names) into
    /// every target, each pinned in the lock to the commit the source resolves to now.
    pub async fn install_git(
        &self,
        spec: String,
        names: Vec<String>,
        targets: Vec<InstallTarget>,
        force: bool,
        link: bool,
    ) -> Result<Vec<InstallReport>, ErrorBody> {
        if targets.is_empty() {
            return Err(PlaceError::NoTarget.into());
        }
        let cache = self.git_cache();
        let skills = self.blocking(move |_| Ok(git_skills(&cache, &spec, &names)?)).await?;
        let mut reports = Vec::new();
        for skill in skills {
            reports.push(self.install_into(skill, targets.clone(), force, link).await?);
        }
        Ok(reports)
    }

    /// Every git-sourced skill in `targets` (all known targets when empty; only `names` when
    /// given) whose branch has moved past its pin, with the files that would change. Writes
    /// nothing but the mirrors.
    pub async fn git_updates(
        &self,
        targets: Vec<InstallTarget>,
        names: Vec<String>,
    ) -> Result<Vec<PinUpdate>, ErrorBody> {
        let places = self.places_of(targets).await?;
        let cache = self.git_cache();
        self.blocking(move |_| {
            let mut out = Vec::new();
            for (target, dir) in places {
                let Some(held) = places::open(&target, false)? else { continue };
                let Some(lock) = install::lock::read(&held)? else { continue };
                for (name, entry) in lock.skills {
                    let SkillSource::Git { url, reference, commit, path } = &entry.source else { continue };
                    if !names.is_empty() && !names.contains(&name) {
                        continue;
                    }
                    cache.fetch(url)?;
                    let newest = cache.resolve(url, reference.as_deref())?;
                    if newest == *commit {
                        continue;
                    }
                    let old = read_at(&cache, url, reference, commit, path)?;
                    let new = read_at(&cache, url, reference, &newest, path)?;
                    out.push(PinUpdate {
                        target: target.clone(),
                        dir: dir.display().to_string(),
                        name,
                        url: url.clone(),
                        reference: reference.clone(),
                        from: commit.clone(),
                        to: newest,
                        changes: package_diff(&old.package, &new.package),
                        outcome: None,
                    });
                }
            }
            Ok(out)
        })
        .await
    }

    /// Moves each pin of `updates` (as [`App::git_updates`] found them, after the person saw them)
    /// to its `to` commit: the skill is copied again from it and its lock entry repinned. A copy
    /// with changes of its own is held back, nothing written.
    pub async fn apply_git_updates(&self, updates: Vec<PinUpdate>) -> Result<Vec<PinUpdate>, ErrorBody> {
        let cache = self.git_cache();
        self.blocking(move |_| {
            let now = skillcase_common::clock::now();
            let mut done = Vec::new();
            for mut update in updates {
                let (target, _) = places::resolve(&update.target)?;
                let held = places::create(&target)?;
                let lock = install::lock::read(&held)?.unwrap_or_default();
                let Some(entry) = lock.skills.get(&update.name) else { continue };
                let SkillSource::Git { path, .. } = &entry.source else { continue };
                let own = install::drift::drift_of(&held, &update.name, &entry.files);
                update.outcome = Some(if own.is_empty() {
                    let skill = read_at(&cache, &update.url, &update.reference, &update.to, path)?;
                    install::install(&held, &skill, false, &now)?;
                    super::record_in_ecosystem_lock(&target, &skill, &now)?;
                    PinOutcome::Moved
                } else {
                    PinOutcome::HeldBack
                });
                done.push(update);
            }
            Ok(done)
        })
        .await
    }
}

/// The skills of the git source `spec` at the commit it names now, checked like any skill to
/// install: those `names` names (each must be there), else every valid one (at least one).
fn git_skills(cache: &GitCache, spec: &str, names: &[String]) -> Result<Vec<SourceSkill>, InstallError> {
    let checkout = cache.checkout_spec(spec)?;
    let (spec, commit, root) = (&checkout.spec, &checkout.commit, checkout.root());
    let mut found = Vec::new();
    for path in skill_folders(&root) {
        let source = SkillSource::Git {
            url: spec.url.clone(),
            reference: spec.reference.clone(),
            commit: commit.clone(),
            path: path.clone(),
        };
        let read = SourceSkill::read(&root.join(&path), source, None);
        match read {
            Ok(skill) if names.is_empty() || names.contains(&skill.name) => found.push(skill),
            Ok(_) => {}
            Err(error) if names.iter().any(|n| path.rsplit('/').next() == Some(n.as_str())) => {
                return Err(error)
            }
            Err(_) => {}
        }
    }
    let missing: Vec<&String> = names.iter().filter(|n| !found.iter().any(|s| &s.name == *n)).collect();
    if !missing.is_empty() || found.is_empty() {
        let wanted = if missing.is_empty() {
            "at all".to_string()
        } else {
            missing.iter().map(|n| n.as_str()).collect::<Vec<_>>().join(", ")
        };
        return Err(InstallError::GitNoSkill { url: spec.url.clone(), wanted });
    }
    Ok(found)
}

/// The skill folder `path` of `url` at `commit`, read from the mirror (fetched first when the
/// mirror does not have that commit).
pub(super) fn read_at(
    cache: &GitCache,
    url: &str,
    reference: &Option<String>,
    commit: &str,
    path: &str,
) -> Result<SourceSkill, InstallError> {
    if !cache.has(url, commit) {
        cache.fetch(url)?;
    }
    let checkout = tempfile::tempdir().map_err(InstallError::io(&std::env::temp_dir()))?;
    let root: PathBuf = checkout.path().join("repo");
    cache.checkout(url, commit, &root)?;
    let source = SkillSource::Git {
        url: url.to_string(),
        reference: reference.clone(),
        commit: commit.to_string(),
        path: path.to_string(),
    };
    SourceSkill::read(&root.join(path), source, None)
}
