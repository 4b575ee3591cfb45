//! Install to agents (SPEC D6): the actions behind the skill view's *Install to agents* and its
//! drift badge, and behind `skillcase install`, `sync` and `verify`. A skill (a library skill by
//! name, or a skill folder) is copied into agents' skills folders at user or project level;
//! each folder's `skillcase.lock` says what was copied, so drift can be found and undone. The
//! copying, the lock and the drift rules are the library's (`skillcase_library::install`); this
//! layer says which folders, where a library skill lives, and remembers the project folders.

mod git;
mod places;
mod resolver;
mod types;

use std::path::PathBuf;

use skillcase_common::ErrorBody;
use skillcase_library::install::agents::SHARED_FOLDER;
use skillcase_library::install::ecosystem::{local_source, EcoLock, EcoSource, OtherInstall, OtherState};
use skillcase_library::install::{self, Agent, SkillSource, SourceSkill, SourceState};

pub use places::{folder_groups, home_dir, FolderGroup, PlaceError};
pub use types::*;

use crate::App;
use resolver::Resolver;

impl App {
    /// Copies `name_or_path` — a skill folder when such a folder exists, else the live folder of
    /// the library skill of that name — into every target. Every target is checked before any is
    /// written: one holding a folder of that name its lock does not list refuses the whole
    /// install (`install_conflict`) unless `force`. Project folders are remembered for
    /// [`App::install_status`].
    pub async fn install_skill(
        &self,
        name_or_path: String,
        targets: Vec<InstallTarget>,
        force: bool,
    ) -> Result<InstallReport, ErrorBody> {
        self.install_named(name_or_path, targets, force, false).await
    }

    /// [`App::install_skill`] with one canonical copy per level (`--link`): the skill is copied
    /// into the standard's shared `.agents/skills` at that level (added to the targets when
    /// missing), and every other target whose agents all follow a linked skill folder gets a link
    /// to that copy (relative in a project, absolute at user level); the others get copies.
    pub async fn install_skill_linked(
        &self,
        name_or_path: String,
        targets: Vec<InstallTarget>,
        force: bool,
    ) -> Result<InstallReport, ErrorBody> {
        self.install_named(name_or_path, targets, force, true).await
    }

    /// A folder or library skill by name, copied (or linked) into every target.
    async fn install_named(
        &self,
        name_or_path: String,
        targets: Vec<InstallTarget>,
        force: bool,
        link: bool,
    ) -> Result<InstallReport, ErrorBody> {
        if targets.is_empty() {
            return Err(PlaceError::NoTarget.into());
        }
        let skill = self.install_source(name_or_path).await?;
        self.install_into(skill, targets, force, link).await
    }

    /// Copies the library skill `name` into every target, as [`App::install_skill`] does, but
    /// never taking `name` for a folder: the window's *Install to…*, whose names come from the
    /// library whatever folder the app happens to run in.
    pub async fn install_library_skill(
        &self,
        name: String,
        targets: Vec<InstallTarget>,
        force: bool,
    ) -> Result<InstallReport, ErrorBody> {
        if targets.is_empty() {
            return Err(PlaceError::NoTarget.into());
        }
        let skill = self.library_source(name).await?;
        self.install_into(skill, targets, force, false).await
    }

    /// Checks every target, then writes `skill` into each (the steps every install shares).
    async fn install_into(
        &self,
        skill: SourceSkill,
        targets: Vec<InstallTarget>,
        force: bool,
        link: bool,
    ) -> Result<InstallReport, ErrorBody> {
        self.blocking(move |inner| {
            let targets = if link { with_shared_folders(targets) } else { targets };
            let resolved =
                one_per_folder(targets.iter().map(places::resolve).collect::<Result<Vec<_>, _>>()?);
            for (target, _) in &resolved {
                install::preflight(places::open(target, false)?.as_ref(), &skill.name, force)?;
                if let Some((dir, kind)) = places::ecosystem_lock_dir(target, false)? {
                    EcoLock::read(&dir, kind)?;
                }
            }
            let canonical: Vec<InstallTarget> = resolved.iter().map(|(t, _)| t.clone()).collect();
            places::remember_projects(inner.settings.as_ref(), &canonical)?;
            let now = skillcase_common::clock::now();
            let mut written = Vec::new();
            for (target, dir) in resolved {
                let held = places::create(&target)?;
                let agents = places::sharing(&target);
                let linked = if link { link_for(&target, &agents, &skill.name)? } else { None };
                let placed = match &linked {
                    Some(to) => install::install_link(&held, &skill, to, force, &now)?,
                    None => install::install(&held, &skill, force, &now)?,
                };
                record_in_ecosystem_lock(&target, &skill, &now)?;
                written.push(InstalledPlace {
                    target,
                    agents,
                    dir: dir.display().to_string(),
                    replaced: placed.replaced,
                    linked: linked.is_some(),
                    kept: placed.kept,
                });
            }
            Ok(InstallReport {
                name: skill.name,
                version: skill.version,
                source: skill.source,
                files: skill.package.files.len() as u32,
                places: written,
            })
        })
        .await
    }

    /// Every target Skillcase knows — each distinct agent folder at user level and in each
    /// project folder installed to before — the choices the window offers and sync and verify
    /// default to.
    pub async fn install_targets(&self) -> Result<Vec<InstallTarget>, ErrorBody> {
        self.blocking(|inner| Ok(places::known_targets(inner.settings.as_ref())?)).await
    }

    /// Records skill folders already in `targets` (put there by hand or by another tool) in each
    /// folder's `skillcase.lock` as they are now: the `names` given, or every folder there that
    /// no lock lists. Each is tracked against the library skill of its name when the library has
    /// one, else against itself (so a later hand edit is drift). One refusal does not stop the
    /// others; each is reported.
    pub async fn adopt_installed(
        &self,
        targets: Vec<InstallTarget>,
        names: Vec<String>,
    ) -> Result<AdoptReport, ErrorBody> {
        if targets.is_empty() {
            return Err(PlaceError::NoTarget.into());
        }
        let places = resolve_all(&targets)?;
        self.scanned().await?;
        let library = self.library()?;
        let data_dir = resolver::data_dir_text(self.data_dir());
        self.blocking(move |_| {
            let now = skillcase_common::clock::now();
            let mut report = AdoptReport { adopted: Vec::new(), refused: Vec::new() };
            for (target, dir) in places {
                let Some(held) = places::open(&target, false)? else { continue };
                let wanted =
                    if names.is_empty() { unlisted_folders(&target, &held, &dir)? } else { names.clone() };
                for name in wanted {
                    let (source, version) = match library.summary(&name) {
                        Ok(summary) => (
                            SkillSource::Library { name: name.clone(), data_dir: data_dir.clone() },
                            summary.live_version,
                        ),
                        Err(_) => (SkillSource::Folder { path: dir.join(&name).display().to_string() }, None),
                    };
                    let shown = dir.display().to_string();
                    match install::adopt(&held, &name, source.clone(), version, &now) {
                        Ok(()) => report.adopted.push(AdoptedSkill {
                            target: target.clone(),
                            dir: shown,
                            name,
                            source,
                        }),
                        Err(error) => {
                            let error = ErrorBody::from(error);
                            report.refused.push(RefusedAdoption {
                                target: target.clone(),
                                dir: shown,
                                name,
                                error,
                            });
                        }
                    }
                }
            }
            Ok(report)
        })
        .await
    }

    /// Every agent of the table, with whether it is installed on this machine (its config folder
    /// is in the home folder): `skillcase agents` and the window's *Install to…* list.
    pub async fn install_agents(&self) -> Result<Vec<AgentHost>, ErrorBody> {
        self.blocking(|_| Ok(agents())).await
    }

    /// Where the skill `name` is installed, among [`App::install_targets`], and how each copy
    /// stands (`in_sync`, `drifted`, `outdated`): the skill view's badge.
    pub async fn install_status(&self, name: String) -> Result<Vec<InstallPlace>, ErrorBody> {
        let targets = self.install_targets().await?;
        let places = resolve_all(&targets)?;
        let resolver = self.resolver(&places).await?;
        self.blocking(move |_| {
            let mut out = Vec::new();
            for (target, dir) in places {
                let checked = match places::open(&target, false)? {
                    Some(held) => install::check_one(&held, &name, &|n, s| resolver.resolve(n, s))?,
                    None => None,
                };
                let dir = dir.display().to_string();
                let agents = places::sharing(&target);
                out.push(match checked {
                    None => InstallPlace {
                        target,
                        agents,
                        dir,
                        installed: false,
                        state: None,
                        version: None,
                        drift: vec![],
                    },
                    Some(check) => InstallPlace {
                        target,
                        agents,
                        dir,
                        installed: true,
                        state: Some(state_of(&check)),
                        version: check.locked.version,
                        drift: check.drift,
                    },
                });
            }
            Ok(out)
        })
        .await
    }

    /// Brings every skill installed in `targets` (all known targets when empty) back to its
    /// source, copying again only what drifted or moved ahead and never touching a folder a
    /// lock does not list.
    pub async fn sync_installs(&self, targets: Vec<InstallTarget>) -> Result<SyncReport, ErrorBody> {
        let places = self.places_of(targets).await?;
        let resolver = self.resolver(&places).await?;
        self.blocking(move |_| {
            let now = skillcase_common::clock::now();
            let mut report = SyncReport { targets: Vec::new() };
            for (target, dir) in places {
                let Some(held) = places::open(&target, false)? else { continue };
                let ours = install::lock::read(&held)?;
                let others = installed_by_others(&target, &held, ours.as_ref())?;
                if ours.is_none() && others.is_empty() {
                    continue;
                }
                let synced = install::sync(&held, &|n, s| resolver.resolve(n, s), &now)?;
                let skills = synced
                    .into_iter()
                    .map(|s| SyncedSkill {
                        name: s.name,
                        outcome: s.outcome,
                        drift: s.drift,
                        version: s.version,
                        kept: s.kept,
                    })
                    .collect();
                report.targets.push(TargetSync { target, dir: dir.display().to_string(), skills, others });
            }
            Ok(report)
        })
        .await
    }

    /// Checks every skill installed in `targets` (all known targets when empty) against its
    /// lock and its source, writing nothing: `clean` is false when a copy drifted or is
    /// outdated (what `skillcase verify` exits 1 on).
    pub async fn verify_installs(&self, targets: Vec<InstallTarget>) -> Result<VerifyReport, ErrorBody> {
        let places = self.places_of(targets).await?;
        let resolver = self.resolver(&places).await?;
        self.blocking(move |_| {
            let mut report = VerifyReport { clean: true, targets: Vec::new() };
            for (target, dir) in places {
                let Some(held) = places::open(&target, false)? else { continue };
                let ours = install::lock::read(&held)?;
                let others = installed_by_others(&target, &held, ours.as_ref())?;
                if ours.is_none() && others.is_empty() {
                    continue;
                }
                let skills: Vec<VerifiedSkill> = install::check(&held, &|n, s| resolver.resolve(n, s))?
                    .into_iter()
                    .map(|c| VerifiedSkill { name: c.name, drift: c.drift, source: c.source })
                    .collect();
                report.clean &= skills.iter().all(VerifiedSkill::is_clean);
                report.clean &= others.iter().all(|o| o.state != OtherState::Drifted);
                report.targets.push(TargetVerify { target, dir: dir.display().to_string(), skills, others });
            }
            Ok(report)
        })
        .await
    }

    /// `targets` on disk, or every known target when none is given.
    async fn places_of(
        &self,
        targets: Vec<InstallTarget>,
    ) -> Result<Vec<(InstallTarget, PathBuf)>, ErrorBody> {
        let targets = if targets.is_empty() { self.install_targets().await? } else { targets };
        resolve_all(&targets)
    }

    /// The skill to install: a folder as itself, else the library skill of that name once the
    /// first scan has listed it (the same rule as the export's).
    async fn install_source(&self, name_or_path: String) -> Result<SourceSkill, ErrorBody> {
        let as_path = PathBuf::from(&name_or_path);
        if as_path.is_dir() {
            return self
                .blocking(move |_| {
                    let dir = as_path.canonicalize().unwrap_or(as_path);
                    let source = SkillSource::Folder { path: dir.display().to_string() };
                    Ok(SourceSkill::read(&dir, source, None)?)
                })
                .await;
        }
        self.library_source(name_or_path).await
    }

    /// The live folder of the library skill `name`, once the first scan has listed it.
    async fn library_source(&self, name: String) -> Result<SourceSkill, ErrorBody> {
        self.scanned().await?;
        let library = self.library()?;
        let data_dir = resolver::data_dir_text(self.data_dir());
        self.blocking(move |_| {
            let dir = library.live_dir(&name)?;
            let version = library.summary(&name)?.live_version;
            let source = SkillSource::Library { name, data_dir };
            Ok(SourceSkill::read(&dir, source, version)?)
        })
        .await
    }

    /// What finds the sources of the skills installed in `places`: the library is opened (and
    /// its first scan awaited) only when one of their locks names a skill of this data
    /// directory's library.
    async fn resolver(&self, places: &[(InstallTarget, PathBuf)]) -> Result<Resolver, ErrorBody> {
        let data_dir = resolver::data_dir_text(self.data_dir());
        let targets: Vec<InstallTarget> = places.iter().map(|(t, _)| t.clone()).collect();
        let wanted = data_dir.clone();
        let needs_library = self.blocking(move |_| Ok(resolver::names_library(&targets, &wanted))).await?;
        let library = if needs_library {
            self.scanned().await?;
            Some(self.library()?)
        } else {
            None
        };
        Ok(Resolver::new(library, data_dir, self.git_cache()))
    }
}

/// The skill folders of `dir` (held as `held`) that neither its `skillcase.lock` nor another
/// tool's lock lists: folders only, hidden names and links left out.
fn unlisted_folders(
    target: &InstallTarget,
    held: &install::OpenDir,
    dir: &std::path::Path,
) -> Result<Vec<String>, ErrorBody> {
    let ours = install::lock::read(held)?.unwrap_or_default();
    let theirs = match places::ecosystem_lock_dir(target, false)? {
        Some((eco_dir, kind)) => EcoLock::read(&eco_dir, kind)?,
        None => None,
    };
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(Vec::new()) };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.') && !ours.skills.contains_key(n))
        .filter(|n| !theirs.as_ref().is_some_and(|l| l.lists(n)))
        .filter(|n| held.kind_of(n) == Some(skillcase_skill::skill_dir::Kind::Dir))
        .collect();
    names.sort();
    Ok(names)
}

/// `targets` with the standard's shared folder added first at each level they name (a linked
/// install's canonical copy lives there).
fn with_shared_folders(targets: Vec<InstallTarget>) -> Vec<InstallTarget> {
    let mut levels: Vec<Option<String>> = targets.iter().map(|t| t.project.clone()).collect();
    levels.dedup();
    let shared = levels.into_iter().map(|project| InstallTarget { agent: Agent::universal(), project });
    shared.chain(targets).collect()
}

/// Where `target`'s link to the canonical copy of `name` points, when it gets one: its folder is
/// not the shared one and every agent reading it follows a linked skill folder. Relative in a
/// project (`../../.agents/skills/NAME` from `.claude/skills`), absolute at user level (the
/// home's agent folders may themselves be links into dotfiles).
fn link_for(target: &InstallTarget, agents: &[Agent], name: &str) -> Result<Option<String>, ErrorBody> {
    let shared = InstallTarget { agent: Agent::universal(), project: target.project.clone() };
    let (_, canonical) = places::resolve(&shared)?;
    let (_, dir) = places::resolve(target)?;
    if dir == canonical || !agents.iter().all(|a| a.follows_links()) {
        return Ok(None);
    }
    Ok(Some(match &target.project {
        Some(_) => {
            let depth = target.agent.project_folder().split('/').count();
            format!("{}{SHARED_FOLDER}/{name}", "../".repeat(depth))
        }
        None => canonical.join(name).display().to_string(),
    }))
}

/// Records `skill` in the ecosystem's lock of `target`'s folder when it is the shared one (see
/// [`places::ecosystem_lock_dir`]), so the `skills` CLI and `gh skill` see it; every other entry
/// stays as it was.
fn record_in_ecosystem_lock(target: &InstallTarget, skill: &SourceSkill, now: &str) -> Result<(), ErrorBody> {
    let Some((dir, kind)) = places::ecosystem_lock_dir(target, true)? else { return Ok(()) };
    let mut lock = EcoLock::read(&dir, kind)?.unwrap_or_else(|| EcoLock::empty(kind));
    let from = match &skill.source {
        SkillSource::Git { url, reference, .. } => EcoSource {
            source: url.clone(),
            source_type: "git",
            source_url: Some(url.clone()),
            reference: reference.clone(),
        },
        _ => EcoSource {
            source: local_source(&skill.dir, dir.path(), kind),
            source_type: "local",
            source_url: None,
            reference: None,
        },
    };
    lock.record(&skill.name, &from, &skill.folder_hash(), now);
    Ok(lock.write(&dir)?)
}

/// The skills another tool recorded in the ecosystem's lock of `target`'s folder (when it is the
/// shared one) that `ours` does not list, checked against that lock.
fn installed_by_others(
    target: &InstallTarget,
    held: &install::OpenDir,
    ours: Option<&install::Lock>,
) -> Result<Vec<OtherInstall>, ErrorBody> {
    let Some((dir, kind)) = places::ecosystem_lock_dir(target, false)? else { return Ok(Vec::new()) };
    let Some(eco) = EcoLock::read(&dir, kind)? else { return Ok(Vec::new()) };
    Ok(install::ecosystem::others(held, &eco, ours))
}

/// Every agent of the table, marked detected when its config folder is in the home folder (none
/// is when no home folder is known). Needs no workspace: `skillcase agents` runs anywhere.
pub fn agents() -> Vec<AgentHost> {
    let home = places::home_dir().ok();
    skillcase_library::install::Agent::all()
        .map(|agent| AgentHost::of(agent, home.as_deref().is_some_and(|h| agent.detected_in(h))))
        .collect()
}

fn resolve_all(targets: &[InstallTarget]) -> Result<Vec<(InstallTarget, PathBuf)>, ErrorBody> {
    Ok(one_per_folder(targets.iter().map(places::resolve).collect::<Result<Vec<_>, _>>()?))
}

/// `resolved` with each folder once, under the first target naming it: agents that share a
/// folder (most read `.agents/skills`) get one copy and one lock entry, not one per agent.
fn one_per_folder(resolved: Vec<(InstallTarget, PathBuf)>) -> Vec<(InstallTarget, PathBuf)> {
    let mut seen = std::collections::HashSet::new();
    resolved.into_iter().filter(|(_, dir)| seen.insert(dir.clone())).collect()
}

fn state_of(check: &install::SkillCheck) -> InstallState {
    match (check.drift.is_empty(), check.source) {
        (false, _) => InstallState::Drifted,
        (true, SourceState::Changed) => InstallState::Outdated,
        (true, _) => InstallState::InSync,
    }
}

impl App {
    /// Every copy of a skill of this data directory's library installed in a known target, with
    /// how it stands: the inventory's *installed in* column.
    pub(crate) async fn installed_library_copies(&self) -> Result<Vec<LibraryCopy>, ErrorBody> {
        let places = self.places_of(Vec::new()).await?;
        let resolver = self.resolver(&places).await?;
        let data_dir = resolver::data_dir_text(self.data_dir());
        self.blocking(move |_| {
            let mut out = Vec::new();
            for (target, dir) in places {
                let Ok(Some(held)) = places::open(&target, false) else { continue };
                let Ok(Some(_)) = install::lock::read(&held) else { continue };
                for check in install::check(&held, &|n, s| resolver.resolve(n, s))? {
                    if let SkillSource::Library { name, data_dir: from } = &check.locked.source {
                        if *from == data_dir {
                            out.push(LibraryCopy {
                                skill: name.clone(),
                                place: InventoryPlace {
                                    target: target.clone(),
                                    dir: dir.display().to_string(),
                                    state: state_of(&check),
                                    version: check.locked.version,
                                },
                            });
                        }
                    }
                }
            }
            Ok(out)
        })
        .await
    }
}

impl App {
    /// Every skill another tool (the `skills` CLI, `gh skill`) installed in a known shared
    /// folder, checked against that tool's lock: the inventory's rows beside the library's.
    pub async fn installed_by_other_tools(&self) -> Result<Vec<OtherPlace>, ErrorBody> {
        let places = self.places_of(Vec::new()).await?;
        self.blocking(move |_| {
            let mut out = Vec::new();
            for (target, dir) in places {
                let Ok(Some(held)) = places::open(&target, false) else { continue };
                let ours = install::lock::read(&held).ok().flatten();
                for skill in installed_by_others(&target, &held, ours.as_ref())? {
                    out.push(OtherPlace { target: target.clone(), dir: dir.display().to_string(), skill });
                }
            }
            Ok(out)
        })
        .await
    }
}

/// One installed copy of a library skill.
pub(crate) struct LibraryCopy {
    pub skill: String,
    pub place: InventoryPlace,
}
