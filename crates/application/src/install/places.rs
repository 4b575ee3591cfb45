//! Where an install target is on disk, and the project folders installed to before (kept in
//! the settings table under `install_projects`, so the skill view can show every place a skill
//! is installed without being told again).

use std::path::{Path, PathBuf};

use skillcase_common::error::Coded;
use skillcase_library::install::Agent;
use skillcase_store::settings::SettingsRepository;

use super::types::InstallTarget;
use crate::settings::{store, SettingsError};

const PROJECTS_KEY: &str = "install_projects";

/// Why a target has no folder.
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    #[error("no install target given; name at least one (claude, agents, codex, github, cursor)")]
    NoTarget,
    #[error("user-level install needs a home folder and none is known (set HOME)")]
    NoHome,
    #[error("the project folder {path} is not an existing folder")]
    BadProject { path: String },
}

impl Coded for PlaceError {
    fn code(&self) -> &'static str {
        match self {
            PlaceError::NoTarget => "install_no_target",
            PlaceError::NoHome => "no_home_dir",
            PlaceError::BadProject { .. } => "invalid_project_dir",
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        match self {
            PlaceError::BadProject { path } => Some(serde_json::json!({ "path": path })),
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
        None => Ok((target.clone(), target.agent.dir_in(&home_dir()?))),
        Some(project) => {
            let root = project_root(project)?;
            let canonical = InstallTarget { agent: target.agent, project: Some(root.display().to_string()) };
            Ok((canonical, target.agent.dir_in(&root)))
        }
    }
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

/// Every known target: each agent at user level (when a home folder is known), then each agent
/// in each remembered project folder that still exists.
pub fn known_targets(settings: &dyn SettingsRepository) -> Result<Vec<InstallTarget>, SettingsError> {
    let mut targets = Vec::new();
    if home_dir().is_ok() {
        targets.extend(Agent::ALL.iter().map(|&agent| InstallTarget { agent, project: None }));
    }
    for project in remembered_projects(settings)?.into_iter().filter(|p| Path::new(p).is_dir()) {
        targets
            .extend(Agent::ALL.iter().map(|&agent| InstallTarget { agent, project: Some(project.clone()) }));
    }
    Ok(targets)
}
