//! Reading the library: the skills list with filters and pages, one skill's detail, its versions,
//! and the three disclosure levels (SPEC A6) over the live, valid skills.

use super::state::{summary, Entry};

use super::sync::read_full;
use super::types::{Origin, SkillDetail, SkillPage, SkillQuery, SkillSummary, ValidityFilter, VersionInfo};
use super::versions::manifest_of;
use super::{Library, LibraryError};
use skillcase_skill::disclosure::{self, Index, IndexFormat};
use skillcase_skill::finding::Finding;
use skillcase_skill::matcher::words;

/// Items per page when a query asks for none.
pub const DEFAULT_PAGE: u32 = 100;

impl Library {
    /// One page of the live skills, sorted by name, filtered by `query`.
    pub fn list(&self, query: &SkillQuery) -> SkillPage {
        let needles = query.text.as_deref().map(words).unwrap_or_default();
        let listed = self.write_state().listed();
        let matching: Vec<&SkillSummary> = listed
            .iter()
            .filter(|line| needles.is_empty() || text_matches(&needles, line.words()))
            .map(|line| &line.summary)
            .filter(|s| query.origin.is_none_or(|o| o == s.origin))
            .filter(|s| query.kind.is_none_or(|k| s.skill_type == Some(k)))
            .filter(|s| query.validity.is_none_or(|v| validity_matches(v, s)))
            .collect();
        let total = matching.len() as u32;
        let limit = query.limit.filter(|l| *l > 0).unwrap_or(DEFAULT_PAGE) as usize;
        let page = matching.into_iter().skip(query.offset.unwrap_or(0) as usize).take(limit);
        SkillPage { items: page.cloned().collect(), total }
    }

    /// The list line of one skill.
    pub fn summary(&self, name: &str) -> Result<SkillSummary, LibraryError> {
        let state = self.read_state();
        let (entry, origin) = state.live(name).ok_or_else(|| not_found(name))?;
        Ok(summary(entry, origin))
    }

    /// Everything the skill screen shows: a fresh full validation of the live folder, its
    /// manifest and the live version.
    pub fn detail(&self, name: &str) -> Result<SkillDetail, LibraryError> {
        let (entry, origin) = self.live_entry(name)?;
        let read = read_full(&entry.dir, &self.policy);
        let manifest = read.content.as_ref().map(|(pkg, _)| manifest_of(pkg)).unwrap_or_default();
        let live_version = match entry.version {
            Some(id) => self.repo.version(id)?.map(|v| v.info(true)),
            None => None,
        };
        Ok(SkillDetail {
            summary: summary(&entry, origin),
            findings: read.validated.findings,
            manifest,
            live_version,
            dir: entry.dir.display().to_string(),
            editable: origin != Origin::Catalog,
        })
    }

    /// The findings of a full validation of the live folder.
    pub fn findings(&self, name: &str) -> Result<Vec<Finding>, LibraryError> {
        let (entry, _) = self.live_entry(name)?;
        Ok(read_full(&entry.dir, &self.policy).validated.findings)
    }

    /// Every recorded version of `name`, newest first, the live one marked.
    pub fn versions(&self, name: &str) -> Result<Vec<VersionInfo>, LibraryError> {
        let live = self.read_state().live(name).and_then(|(e, _)| e.version);
        let rows = self.repo.versions(name)?;
        if rows.is_empty() && live.is_none() && self.read_state().live(name).is_none() {
            return Err(not_found(name));
        }
        Ok(rows.iter().map(|v| v.info(Some(v.id) == live)).collect())
    }

    /// Level 1: the index of live, valid, visible skills in `format`, cut at `budget` characters.
    pub fn index(&self, format: IndexFormat, budget: usize) -> Index {
        let served = self.write_state().served();
        disclosure::index(&served.skills, format, budget)
    }

    /// Level 2: what the agent receives when it reads `name` (for `task`, when given).
    pub fn level2(&self, name: &str, task: Option<&str>) -> Result<String, LibraryError> {
        Ok(self.level2_parts(name, task)?.text)
    }

    /// Level 2 with its parts marked (body, required, optional, route-matched), from the stored
    /// version the agent is served (see [`crate::served`]): every front end, and the preview,
    /// give these bytes.
    pub fn level2_parts(
        &self,
        name: &str,
        task: Option<&str>,
    ) -> Result<disclosure::Activation, LibraryError> {
        let stored = self.stored_skill(name)?;
        Ok(disclosure::activation_parts(&stored.skill, task, &|path: &str| stored.read(path))?)
    }

    /// Level 3: one support file of `name` as text, from the stored version the agent is served.
    pub fn level3(&self, name: &str, path: &str) -> Result<String, LibraryError> {
        let stored = self.stored_skill(name)?;
        Ok(disclosure::file(&stored.skill, path, &|path: &str| stored.read(path))?)
    }

    /// The folder the live version of `name` is read from (the skills directory's, or the
    /// catalog's when it is not overridden).
    pub fn live_dir(&self, name: &str) -> Result<std::path::PathBuf, LibraryError> {
        Ok(self.live_entry(name)?.0.dir)
    }

    /// A copy of the live entry of `name` and its origin.
    pub(super) fn live_entry(&self, name: &str) -> Result<(Entry, Origin), LibraryError> {
        let state = self.read_state();
        state.live(name).map(|(e, o)| (e.clone(), o)).ok_or_else(|| not_found(name))
    }
}

fn not_found(name: &str) -> LibraryError {
    LibraryError::NotFound { name: name.to_string() }
}

fn validity_matches(filter: ValidityFilter, s: &SkillSummary) -> bool {
    match filter {
        ValidityFilter::Valid => s.validity.errors == 0,
        ValidityFilter::Invalid => s.validity.errors > 0,
        ValidityFilter::Warnings => s.validity.errors == 0 && s.validity.warnings > 0,
    }
}

/// Every query word occurs (as a prefix of a word) in the name, description, category or tags.
fn text_matches(needles: &[String], haystack: &[String]) -> bool {
    needles.iter().all(|n| haystack.iter().any(|w| w.starts_with(n.as_str())))
}
