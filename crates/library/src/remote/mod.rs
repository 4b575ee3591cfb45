//! Remote catalogs (SPEC D6): catalogs subscribed to by URL — a static JSON
//! index or an MCP server serving the Skills extension — pulled incrementally into the blob
//! store, installed as forks, and kept for the local copy's sake when upstream removes a skill.
//!
//! The library holds what is *stored*: subscriptions, what each pull found (every file's bytes
//! in the content-addressed blob store, so a file already stored is never downloaded again), the
//! fork recorded on install, and the checks on what a catalog says ([`wire`]). Talking to the
//! catalog over the network is the application layer's (`skillcase_application::catalogs`): it
//! asks [`Library::files_to_fetch`] what to download, streams each file into [`Downloads`]
//! (checked against its announced size and sha256 as it arrives, kept on disk, never in memory)
//! and hands them to [`Library::record_pull`], which moves them into the blob store and records
//! the new state of the catalog in one step, or nothing.
//!
//! Module map: [`wire`] (URLs, the index format, the checks), [`types`] (what the UI sees),
//! [`store`] (SQL), [`pull`] (incremental pull), [`install`] (fork on install), and here the
//! subscriptions, the listing with *updates available*, and the inventory's origins.

pub mod error;
pub mod install;
pub mod pull;
pub mod store;
pub mod types;
pub mod wire;

use std::collections::HashMap;

pub use error::RemoteError;
pub use pull::{Download, Downloads, Wanted, MAX_PULL_BYTES};
pub use types::*;
pub use wire::{Upstream, UpstreamFile};

use crate::{Library, LibraryError, Origin};
use store::{CatalogRow, ForkRow, PulledRow};

impl Library {
    /// Subscribes to the catalog at `url` (already checked with [`wire::catalog_url`] and of a
    /// known `kind`), with the reference of the file holding its token when it needs one;
    /// `catalog_exists` when it is subscribed already.
    pub fn subscribe(
        &self,
        url: &str,
        kind: CatalogKind,
        token_ref: Option<&str>,
    ) -> Result<RemoteCatalog, LibraryError> {
        let id = self.remote.insert_catalog(url, kind, token_ref)?;
        self.remote_catalog(id)
    }

    /// Forgets a subscription and what its pulls found. Local copies installed from it stay,
    /// still naming its URL as where they came from.
    pub fn unsubscribe(&self, id: i64) -> Result<(), LibraryError> {
        if !self.remote.delete_catalog(id)? {
            return Err(RemoteError::NotFound { id }.into());
        }
        Ok(())
    }

    /// Every subscribed catalog, oldest first.
    pub fn remote_catalogs(&self) -> Result<Vec<RemoteCatalog>, LibraryError> {
        Ok(self.remote.catalogs()?.into_iter().map(shown).collect())
    }

    /// One subscribed catalog; `catalog_not_found` when there is none with that id.
    pub fn remote_catalog(&self, id: i64) -> Result<RemoteCatalog, LibraryError> {
        Ok(shown(self.catalog_row(id)?))
    }

    /// The stored subscription with its token's reference, for the client that pulls it.
    pub fn catalog_row(&self, id: i64) -> Result<CatalogRow, LibraryError> {
        self.remote.catalog(id)?.ok_or_else(|| RemoteError::NotFound { id }.into())
    }

    /// Notes why the last pull of `catalog` failed (shown in the listing until a pull succeeds).
    pub fn record_pull_error(&self, catalog: i64, error: String) -> Result<(), LibraryError> {
        self.remote.record_pull_error(catalog, error)
    }

    /// The skills of one remote catalog (or of all) as the last pulls found them, removed ones
    /// included, each with the local copy installed from it and whether an update is available.
    pub fn remote_skills(&self, catalog: Option<i64>) -> Result<Vec<RemoteSkill>, LibraryError> {
        if let Some(id) = catalog {
            self.catalog_row(id)?;
        }
        let urls: HashMap<i64, String> = self.remote.catalogs()?.into_iter().map(|c| (c.id, c.url)).collect();
        let forks = self.live_forks()?;
        let rows = self.remote.pulled(catalog)?;
        Ok(rows
            .into_iter()
            .map(|row| {
                let fork = forks
                    .iter()
                    .find(|(f, _)| f.catalog_id == Some(row.catalog_id) && f.upstream_name == row.name);
                remote_skill(&row, urls.get(&row.catalog_id).cloned().unwrap_or_default(), fork)
            })
            .collect())
    }

    /// Every live skill with where it came from, for the inventory: its origin, live version and
    /// digest, and — for a copy installed from a remote catalog — that catalog, the upstream
    /// version, and whether upstream removed it or moved ahead.
    pub fn skill_origins(&self) -> Result<Vec<LibrarySkillOrigin>, LibraryError> {
        let forks: HashMap<String, (ForkRow, Option<String>)> =
            self.live_forks()?.into_iter().map(|(f, hash)| (f.name.clone(), (f, hash))).collect();
        let pulled: HashMap<(i64, String), PulledRow> =
            self.remote.pulled(None)?.into_iter().map(|r| ((r.catalog_id, r.name.clone()), r)).collect();
        let live: Vec<(String, Origin, Option<i64>)> = {
            let state = self.read_state();
            state.live_entries().into_iter().map(|(e, origin)| (e.name.clone(), origin, e.version)).collect()
        };
        let mut out = Vec::with_capacity(live.len());
        for (name, origin, version) in live {
            let digest = match version {
                Some(id) => self.repo.version(id)?.map(|v| v.content_hash),
                None => None,
            };
            let mut item = LibrarySkillOrigin {
                name: name.clone(),
                origin,
                version,
                digest,
                source: match origin {
                    Origin::Local => SkillProvenance::Local,
                    Origin::Catalog | Origin::Overridden => SkillProvenance::FactoryCatalog,
                },
                catalog_url: None,
                upstream_version: None,
                upstream_removed: false,
                update_available: false,
            };
            if let (Some((fork, _)), true) = (forks.get(&name), origin != Origin::Catalog) {
                item.source = SkillProvenance::RemoteCatalog;
                item.catalog_url = Some(fork.catalog_url.clone());
                item.upstream_version = fork.upstream_version.clone();
                let upstream = fork.catalog_id.and_then(|id| pulled.get(&(id, fork.upstream_name.clone())));
                if let Some(row) = upstream {
                    item.upstream_removed = row.removed_at.is_some();
                    item.update_available = row.removed_at.is_none() && row.digest != fork.upstream_digest;
                }
            }
            out.push(item);
        }
        Ok(out)
    }

    /// The forks whose local skill still exists, each with that skill's live content hash.
    fn live_forks(&self) -> Result<Vec<(ForkRow, Option<String>)>, LibraryError> {
        let mut out = Vec::new();
        for fork in self.remote.forks()? {
            let version = self.read_state().local.get(&fork.name).map(|e| e.version);
            let Some(version) = version else { continue };
            let hash = match version {
                Some(id) => self.repo.version(id)?.map(|v| v.content_hash),
                None => None,
            };
            out.push((fork, hash));
        }
        Ok(out)
    }
}

fn shown(row: CatalogRow) -> RemoteCatalog {
    RemoteCatalog {
        id: row.id,
        url: row.url,
        kind: row.kind,
        has_token: row.token_ref.is_some(),
        added_at: row.added_at,
        pulled_at: row.pulled_at,
        last_error: row.last_error,
        skills: row.skills,
    }
}

fn remote_skill(
    row: &PulledRow,
    catalog_url: String,
    fork: Option<&(ForkRow, Option<String>)>,
) -> RemoteSkill {
    let removed = row.removed_at.is_some();
    RemoteSkill {
        catalog: row.catalog_id,
        catalog_url,
        name: row.name.clone(),
        version: row.version.clone(),
        description: row.description.clone(),
        digest: row.digest.clone(),
        files: row.manifest.len() as u32,
        bytes: row.manifest.iter().map(|m| m.size).sum(),
        pulled_at: row.pulled_at.clone(),
        upstream_removed: removed,
        revoked: row.revoked,
        installed: fork.map(|(fork, live_hash)| ForkStatus {
            name: fork.name.clone(),
            forked_digest: fork.upstream_digest.clone(),
            forked_version: fork.upstream_version.clone(),
            update_available: !removed && fork.upstream_digest != row.digest,
            locally_modified: live_hash.as_deref() != Some(fork.upstream_digest.as_str()),
        }),
    }
}
