//! Where an install target is on disk, how it is opened, and the project folders installed to
//! before (kept in the settings table under `install_projects`, so the skill view can show every
//! place a skill is installed without being told again).
//!
//! A target folder is opened once and everything in it is read and written through that handle
//! (`OpenDir`). At user level its path is followed as the person set it up (`~/.claude` may be a
//! link into their dotfiles). At project level only the project folder a person named is followed:
//! `.claude` and `skills` beneath it are opened one at a time without following a link, and a
//! link there is followed only when it leads to a folder still inside the project — a repository
//! can commit `.claude/skills` as a link, and must not send an install out of the project.

use std::path::{Path, PathBuf};

use skillcase_common::error::Coded;
use skillcase_library::install::agents::SHARED_FOLDER;
use skillcase_library::install::ecosystem::LockKind;
use skillcase_library::install::{Agent, OpenDir};
use skillcase_skill::skill_dir::FileError;
use skillcase_store::settings::SettingsRepository;

use super::types::InstallTarget;
use crate::settings::{store, SettingsError};

const PROJECTS_KEY: &str = "install_projects";

/// Why a target has no folder.
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    #[error("no install target given; name at least one agent (`skillcase agents` lists them) or --all")]
    NoTarget,
    /// The agent reads skills only from projects.
    #[error("{agent} has no skills folder under the home folder; install it into a project")]
    NoUserFolder { agent: String },
    #[error("user-level install needs a home folder and none is known (set HOME)")]
    NoHome,
    #[error("the project folder {path} is not an existing folder")]
    BadProject { path: String },
    /// A link on the way to a project's agent folder leads out of the project (or nowhere).
    #[error("{project}/{link} is a link that leads out of the project; Skillcase installs only into folders inside it")]
    OutsideProject { project: String, link: String },
    /// The agent folder could not be opened (a file in its place, permissions).
    #[error("cannot open the agent folder {path}: {source}")]
    Folder { path: String, source: FileError },
}

impl Coded for PlaceError {
    fn code(&self) -> &'static str {
        match self {
            PlaceError::NoTarget => "install_no_target",
            PlaceError::NoUserFolder { .. } => "install_no_user_folder",
            PlaceError::NoHome => "no_home_dir",
            PlaceError::BadProject { .. } => "invalid_project_dir",
            PlaceError::OutsideProject { .. } => "install_target_outside_project",
            PlaceError::Folder { source, .. } => source.code(),
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        match self {
            PlaceError::BadProject { path } => Some(serde_json::json!({ "path": path })),
            PlaceError::OutsideProject { project, link } => {
                Some(serde_json::json!({ "project": project, "link": link }))
            }
            PlaceError::Folder { path, .. } => Some(serde_json::json!({ "path": path })),
            PlaceError::NoUserFolder { agent } => Some(serde_json::json!({ "agent": agent })),
            _ => None,
        }
    }
}

/// The home folder user-level targets live under (`$HOME` on Unix).
pub fn home_dir() -> Result<PathBuf, PlaceError> {
    directories::BaseDirs::new().map(|dirs| dirs.home_dir().to_path_buf()).ok_or(PlaceError::NoHome)
}

/// `target` with its project folder made absolute and canonical, and its agent's skills folder.
pub fn resolve(target: &InstallTarget) -> Result<(InstallTarget, PathBuf), PlaceError> {
    match &target.project {
        None => Ok((target.clone(), user_dir(target.agent)?)),
        Some(project) => {
            let root = project_root(project)?;
            let canonical = InstallTarget { agent: target.agent, project: Some(root.display().to_string()) };
            Ok((canonical, target.agent.project_dir(&root)))
        }
    }
}

/// The agent folder of the resolved `target`, held open: `None` when it does not exist and
/// `create` is false; created (with its missing parents) otherwise. See the module's rules for
/// links.
pub fn open(target: &InstallTarget, create: bool) -> Result<Option<OpenDir>, PlaceError> {
    match &target.project {
        None => {
            let dir = user_dir(target.agent)?;
            let opened = if create { OpenDir::create_named(&dir) } else { OpenDir::open_named(&dir) };
            match opened {
                Ok(dir) => Ok(Some(dir)),
                Err(FileError::NotFound(_)) if !create => Ok(None),
                Err(source) => Err(PlaceError::Folder { path: dir.display().to_string(), source }),
            }
        }
        Some(project) => {
            let root = project_root(project)?;
            let shown = root.display().to_string();
            let held =
                OpenDir::open_named(&root).map_err(|_| PlaceError::BadProject { path: project.clone() })?;
            held.beneath(target.agent.project_folder(), create).map_err(|source| match source {
                FileError::NotBeneath { path } | FileError::Symlink { path } => {
                    PlaceError::OutsideProject { project: shown.clone(), link: path }
                }
                source => {
                    PlaceError::Folder { path: target.agent.project_dir(&root).display().to_string(), source }
                }
            })
        }
    }
}

/// The agent folder of the resolved `target`, created when missing, held open.
pub fn create(target: &InstallTarget) -> Result<OpenDir, PlaceError> {
    open(target, true)?.ok_or_else(|| {
        let path = resolve(target).map(|(_, dir)| dir).unwrap_or_default();
        PlaceError::Folder { path: path.display().to_string(), source: FileError::NotFound(path) }
    })
}

/// Where the ecosystem's lock of `target`'s folder lives, held open (created when `create`), when
/// that folder is the standard's shared one: the project folder for `.agents/skills` in a project
/// (`skills-lock.json`), `~/.agents` for `~/.agents/skills` (`.skill-lock.json`; under
/// `$XDG_STATE_HOME/skills` when that is set, as the `skills` CLI does). `None` for any other folder.
pub fn ecosystem_lock_dir(
    target: &InstallTarget,
    create: bool,
) -> Result<Option<(OpenDir, LockKind)>, PlaceError> {
    match &target.project {
        Some(project) if target.agent.project_folder() == SHARED_FOLDER => {
            let root = project_root(project)?;
            let held =
                OpenDir::open_named(&root).map_err(|_| PlaceError::BadProject { path: project.clone() })?;
            Ok(Some((held, LockKind::Project)))
        }
        None if target.agent.user_folder() == Some(SHARED_FOLDER) => {
            let dir = match std::env::var_os("XDG_STATE_HOME").map(PathBuf::from).filter(|p| p.is_absolute())
            {
                Some(state) => state.join("skills"),
                None => home_dir()?.join(".agents"),
            };
            let opened = if create { OpenDir::create_named(&dir) } else { OpenDir::open_named(&dir) };
            match opened {
                Ok(held) => Ok(Some((held, LockKind::User))),
                Err(FileError::NotFound(_)) if !create => Ok(None),
                Err(source) => Err(PlaceError::Folder { path: dir.display().to_string(), source }),
            }
        }
        _ => Ok(None),
    }
}

/// The folder a user-level install for `agent` writes.
fn user_dir(agent: Agent) -> Result<PathBuf, PlaceError> {
    agent.user_dir(&home_dir()?).ok_or_else(|| PlaceError::NoUserFolder { agent: agent.to_string() })
}

fn project_root(project: &str) -> Result<PathBuf, PlaceError> {
    let bad = || PlaceError::BadProject { path: project.to_string() };
    let path = Path::new(project);
    if project.trim().is_empty() || !path.is_dir() {
        return Err(bad());
    }
    path.canonicalize().map_err(|_| bad())
}

/// The project folders installed to before, sorted.
pub fn remembered_projects(settings: &dyn SettingsRepository) -> Result<Vec<String>, SettingsError> {
    Ok(store::get::<Vec<String>>(settings, PROJECTS_KEY)?.unwrap_or_default())
}

/// Adds the project folders of `targets` to the remembered ones.
pub fn remember_projects(
    settings: &dyn SettingsRepository,
    targets: &[InstallTarget],
) -> Result<(), SettingsError> {
    let mut projects = remembered_projects(settings)?;
    let before = projects.len();
    projects.extend(targets.iter().filter_map(|t| t.project.clone()));
    projects.sort();
    projects.dedup();
    if projects.len() != before {
        store::put(settings, PROJECTS_KEY, &projects)?;
    }
    Ok(())
}

/// The agents that share one skills folder at one level, the first standing for them all (the
/// standard's `universal` row for the shared folder).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderGroup {
    /// The folder relative to the home or project folder.
    pub folder: &'static str,
    pub agents: Vec<Agent>,
}

impl FolderGroup {
    /// The agent a target for this folder names.
    pub fn first(&self) -> Agent {
        self.agents[0]
    }
}

/// Every distinct skills folder at user level (`project` false) or project level, with the
/// agents that read it, in the table's order of first appearance.
pub fn folder_groups(project: bool) -> Vec<FolderGroup> {
    let mut groups: Vec<FolderGroup> = Vec::new();
    for agent in Agent::all() {
        let folder = if project { Some(agent.project_folder()) } else { agent.user_folder() };
        let Some(folder) = folder else { continue };
        match groups.iter_mut().find(|g| g.folder == folder) {
            Some(group) if agent == Agent::universal() => group.agents.insert(0, agent),
            Some(group) => group.agents.push(agent),
            None => groups.push(FolderGroup { folder, agents: vec![agent] }),
        }
    }
    groups
}

/// The agents that share `target`'s folder at its level (the target's agent among them).
pub fn sharing(target: &InstallTarget) -> Vec<Agent> {
    let project = target.project.is_some();
    let folder = if project { Some(target.agent.project_folder()) } else { target.agent.user_folder() };
    folder_groups(project)
        .into_iter()
        .find(|g| Some(g.folder) == folder)
        .map_or_else(|| vec![target.agent], |g| g.agents)
}

/// Every known target, one per distinct folder: each user-level folder (when a home folder is
/// known), then each project-level folder of each remembered project folder that still exists.
pub fn known_targets(settings: &dyn SettingsRepository) -> Result<Vec<InstallTarget>, SettingsError> {
    let mut targets = Vec::new();
    if home_dir().is_ok() {
        targets
            .extend(folder_groups(false).iter().map(|g| InstallTarget { agent: g.first(), project: None }));
    }
    let in_projects = folder_groups(true);
    for project in remembered_projects(settings)?.into_iter().filter(|p| Path::new(p).is_dir()) {
        targets.extend(
            in_projects.iter().map(|g| InstallTarget { agent: g.first(), project: Some(project.clone()) }),
        );
    }
    Ok(targets)
}
