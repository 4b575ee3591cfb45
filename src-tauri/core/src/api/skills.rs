//! The skills the API serves (SPEC A6–A7), read from the skills directory.
//!
//! Each request reads the folders it needs, so an edit in the directory is served at once; a
//! skill with error findings is never served. The index and matching use the fast level-1 read
//! (frontmatter and config only); levels 2 and 3 load the whole skill.
//!
//! Activation is kept per conversation in memory: a hard match (`POST /v1/skills/match`) or a
//! level-2 read with a `conversation_id` activates a skill there, and a level-3 read is allowed
//! only for active skills (`skill_not_active`). The durable activation record with versions, for
//! the activation chart, belongs to the library and is not written here.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::json;

use crate::error::Coded;
use crate::skill::finding::Severity;
use crate::skill::load::{load_dir, read_index_entry};
use crate::skill::model::Skill;
use crate::skill::policy::Policy;
use crate::skill::validate::Profile;

/// Why a skill could not be served.
#[derive(Debug, thiserror::Error)]
pub enum SkillsError {
    #[error("no skill named `{name}` in the skills directory")]
    NotFound { name: String },
    #[error("skill `{name}` has {errors} validation error(s) and is not served until they are fixed")]
    Invalid { name: String, errors: usize },
    #[error("skill `{name}` is not active in conversation `{conversation_id}`; read it (level 2) or match a message that activates it first")]
    NotActive { name: String, conversation_id: String },
    #[error("cannot read the skills directory {dir}: {source}")]
    DirUnreadable { dir: String, source: std::io::Error },
}

impl Coded for SkillsError {
    fn code(&self) -> &'static str {
        match self {
            SkillsError::NotFound { .. } => "skill_not_found",
            SkillsError::Invalid { .. } => "skill_invalid",
            SkillsError::NotActive { .. } => crate::skill::disclosure::SKILL_NOT_ACTIVE,
            SkillsError::DirUnreadable { .. } => "skills_dir_unreadable",
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        match self {
            SkillsError::NotFound { name } | SkillsError::Invalid { name, .. } => {
                Some(json!({ "name": name }))
            }
            SkillsError::NotActive { name, conversation_id } => {
                Some(json!({ "name": name, "conversation_id": conversation_id }))
            }
            SkillsError::DirUnreadable { .. } => None,
        }
    }
}

/// One skills directory and the skills active in each conversation.
#[derive(Debug)]
pub struct SkillsSource {
    dir: PathBuf,
    active: Mutex<HashMap<String, BTreeSet<String>>>,
}

impl SkillsSource {
    /// Serves the skills under `dir` (one folder per skill).
    pub fn new(dir: PathBuf) -> Self {
        SkillsSource { dir, active: Mutex::default() }
    }

    /// Every valid skill, as the index and the matcher need it (frontmatter and config only).
    pub fn index_skills(&self) -> Result<Vec<Skill>, SkillsError> {
        let unreadable = |source| SkillsError::DirUnreadable { dir: self.dir.display().to_string(), source };
        let mut folders: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .map_err(unreadable)?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| path.join("SKILL.md").is_file())
            .collect();
        folders.sort();
        Ok(folders
            .iter()
            .map(|folder| read_index_entry(folder, Profile::Skillcase))
            .filter(|validated| validated.is_valid())
            .filter_map(|validated| validated.skill)
            .collect())
    }

    /// The whole skill `name`, if it exists and is valid.
    pub fn skill(&self, name: &str) -> Result<Skill, SkillsError> {
        let not_found = || SkillsError::NotFound { name: name.to_string() };
        let plain = !name.is_empty() && Path::new(name).file_name() == Some(name.as_ref()) && name != "..";
        let folder = self.dir.join(name);
        if !plain || !folder.join("SKILL.md").is_file() {
            return Err(not_found());
        }
        let validated = load_dir(&folder, Profile::Skillcase, &Policy::default());
        if !validated.is_valid() {
            let errors = validated.findings.iter().filter(|f| f.severity == Severity::Error).count();
            return Err(SkillsError::Invalid { name: name.to_string(), errors });
        }
        validated.skill.ok_or_else(not_found)
    }

    /// Marks `names` active in `conversation_id`.
    pub fn activate(&self, conversation_id: &str, names: impl IntoIterator<Item = String>) {
        let mut active = self.active.lock().unwrap_or_else(|p| p.into_inner());
        active.entry(conversation_id.to_string()).or_default().extend(names);
    }

    /// Refuses unless `name` is active in `conversation_id`.
    pub fn require_active(&self, conversation_id: &str, name: &str) -> Result<(), SkillsError> {
        let active = self.active.lock().unwrap_or_else(|p| p.into_inner());
        if active.get(conversation_id).is_some_and(|names| names.contains(name)) {
            return Ok(());
        }
        Err(SkillsError::NotActive { name: name.to_string(), conversation_id: conversation_id.to_string() })
    }
}
