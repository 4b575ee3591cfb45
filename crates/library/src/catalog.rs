//! The catalog (SPEC A9): the factory skills shipped in `skills-examples/`, read-only. A catalog
//! skill is served as it is until a local folder of the same name overrides it; [`Library::install`]
//! copies one into the skills directory, [`Library::remove_override`] deletes the local copy so
//! the catalog's version comes back. A catalog skill that disappears while overridden simply
//! leaves the local copy standing alone (origin `local`).

use super::types::{CatalogEntry, VersionInfo};
use super::{check_name, state::one_line, Library, LibraryError, Source, PROFILE};
use skillcase_skill::load::{package_from, LoadError};
use skillcase_skill::validate::validate_package;

impl Library {
    /// Every catalog skill, by name, with whether it is installed and whether the local copy
    /// differs from it.
    pub fn catalog(&self) -> Vec<CatalogEntry> {
        let state = self.read_state();
        state
            .catalog
            .values()
            .map(|entry| {
                let local = state.local.get(&entry.name);
                let skill = entry.skill.as_ref();
                CatalogEntry {
                    name: entry.name.clone(),
                    description: skill.map(|s| one_line(&s.description)).unwrap_or_default(),
                    category: skill.and_then(|s| s.config.category.clone()),
                    tags: skill.map(|s| s.config.tags.clone()).unwrap_or_default(),
                    skill_type: skill.map(|s| s.skill_type),
                    installed: local.is_some(),
                    overridden: local.is_some_and(|l| l.version != entry.version),
                }
            })
            .collect()
    }

    /// Copies catalog skill `name` into the skills directory as a local skill. Its content is
    /// the catalog version's, so that version becomes live (no duplicate is recorded); every
    /// later local version of the name records `forked_from` = the catalog version.
    pub fn install(&self, name: &str) -> Result<VersionInfo, LibraryError> {
        check_name(name)?;
        let _writing = self.write_lock();
        let dir = {
            let state = self.read_state();
            if state.local.contains_key(name) {
                return Err(LibraryError::AlreadyExists { name: name.to_string() });
            }
            let entry =
                state.catalog.get(name).ok_or(LibraryError::NotInCatalog { name: name.to_string() })?;
            entry.dir.clone()
        };
        let pkg = super::sync::listed(&dir)
            .map_err(LoadError::from)
            .and_then(package_from)
            .map_err(|e| LibraryError::Refused { findings: vec![e.to_finding()] })?;
        let validated = validate_package(&pkg, PROFILE, &self.policy);
        self.write_folder(name, &pkg, validated, Source::Catalog)
    }

    /// Deletes the local folder that overrides catalog skill `name`; the catalog's version is
    /// live again.
    pub fn remove_override(&self, name: &str) -> Result<(), LibraryError> {
        check_name(name)?;
        let _writing = self.write_lock();
        {
            let state = self.read_state();
            if !state.catalog.contains_key(name) {
                return Err(LibraryError::NotOverridden { name: name.to_string() });
            }
            if !state.local.contains_key(name) {
                return Err(LibraryError::NotOverridden { name: name.to_string() });
            }
        }
        self.remove_folder(name)
    }
}
