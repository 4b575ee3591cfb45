//! The Catalog screen: the factory skills, installing one, and removing a local override; the
//! remote catalogs subscribed by URL, their incremental pulls, and installing (forking) a skill
//! from one.

use crate::ipc::ipc;
use skillcase_application::catalogs::{NewCatalog, PullAllReport};
use skillcase_application::domain::library::remote::{PullReport, RemoteCatalog, RemoteInstall, RemoteSkill};
use skillcase_application::domain::library::{CatalogEntry, SkillDetail};
use tauri::State;

use crate::state::AppState;

ipc! {
    /// Every factory skill with what is installed and overridden.
    fn catalog_list(state: State<'_, AppState>) -> Vec<CatalogEntry> {
        Ok(state.app().catalog().await?)
    }

    /// Installs a factory skill as a local copy.
    fn catalog_install(state: State<'_, AppState>, name: String) -> SkillDetail {
        Ok(state.app().install_from_catalog(name).await?)
    }

    /// Removes a local override, bringing the factory version back.
    fn catalog_remove_override(state: State<'_, AppState>, name: String) -> () {
        Ok(state.app().remove_override(name).await?)
    }

    /// Every subscribed remote catalog with its last pull.
    fn remote_catalogs(state: State<'_, AppState>) -> Vec<RemoteCatalog> {
        Ok(state.app().catalog_subscriptions().await?)
    }

    /// Subscribes to the catalog at `request.url` (its kind found by asking it); nothing pulled yet.
    fn remote_catalog_add(state: State<'_, AppState>, request: NewCatalog) -> RemoteCatalog {
        Ok(state.app().subscribe_catalog(request).await?)
    }

    /// Removes a subscription; local copies installed from it stay.
    fn remote_catalog_remove(state: State<'_, AppState>, id: i64) -> () {
        Ok(state.app().unsubscribe_catalog(id).await?)
    }

    /// Pulls one catalog, downloading only what changed.
    fn remote_catalog_pull(state: State<'_, AppState>, id: i64) -> PullReport {
        Ok(state.app().pull_catalog(id).await?)
    }

    /// Pulls every subscribed catalog.
    fn remote_catalogs_pull(state: State<'_, AppState>) -> PullAllReport {
        Ok(state.app().pull_catalogs().await?)
    }

    /// The skills the pulls found, with their local copies and updates available.
    fn remote_skills(state: State<'_, AppState>) -> Vec<RemoteSkill> {
        Ok(state.app().remote_skills(None).await?)
    }

    /// Installs (forks) the remote skill into the skills directory, or updates the fork.
    fn remote_skill_install(state: State<'_, AppState>, catalog: i64, name: String) -> RemoteInstall {
        Ok(state.app().install_remote_skill(catalog, name).await?)
    }
}
