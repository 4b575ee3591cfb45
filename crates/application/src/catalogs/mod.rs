//! Remote catalogs (SPEC D6): the actions behind the Catalog screen's remote catalogs and
//! `skillcase catalogs …` / `skillcase inventory`. Subscribing checks the URL and finds the
//! catalog's kind (a static JSON index, or an MCP server serving the Skills extension); a pull
//! downloads only the files whose bytes are not stored yet, checks every one against its
//! announced sha256 and size, and records the pull in one step or not at all; installing a remote
//! skill forks it into the skills directory through the one import pipeline. What is stored and
//! how it is compared is the library's (`skillcase_library::remote`); the network is
//! [`client`]'s (and [`mcp`]'s, for an MCP catalog).
//!
//! A pull is bounded by construction: its listing by the limits [`client`] applies while it
//! reads, its downloads by the bytes the catalog announced (at most
//! [`skillcase_library::remote::MAX_PULL_BYTES`]) and streamed to disk as they arrive, and its
//! listing and downloads together by a deadline ([`PULL_DEADLINE`], `catalog_pull_timeout`).
//!
//! A catalog's bearer token is kept in a private file of its own (`skillcase_store::secrets`),
//! the database holding only its name.

pub mod client;
mod git;
mod mcp;

use std::time::Duration;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use skillcase_common::ErrorBody;
use skillcase_library::remote::{
    wire, CatalogKind, Downloads, PullReport, RemoteCatalog, RemoteError, RemoteInstall, RemoteSkill,
    SkillProvenance, Upstream,
};
use skillcase_library::{LibraryError, Origin};
use skillcase_store::secrets::SecretFiles;

use crate::install::InventoryPlace;
use crate::App;
use client::Client;

/// How long one pull may spend on the network in all — its listing and every download — before
/// it is stopped with nothing of it kept (`catalog_pull_timeout`). Each request has its own
/// shorter timeout besides.
pub const PULL_DEADLINE: Duration = Duration::from_secs(10 * 60);

/// The token file of a subscribed catalog cannot be read (removed or damaged outside Skillcase).
#[derive(Debug, thiserror::Error)]
#[error("the token of catalog {catalog} cannot be read from {}: {source}; remove the catalog and add it again with its token", path.display())]
pub struct CatalogTokenError {
    pub catalog: i64,
    pub path: std::path::PathBuf,
    pub source: std::io::Error,
}

impl skillcase_common::error::Coded for CatalogTokenError {
    fn code(&self) -> &'static str {
        "catalog_token_unreadable"
    }

    fn details(&self) -> Option<serde_json::Value> {
        Some(serde_json::json!({ "catalog": self.catalog }))
    }
}

/// A subscription to make.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct NewCatalog {
    /// `http` or `https`: the index document, or the MCP endpoint (`…/mcp`).
    pub url: String,
    /// The kind when known; found by asking the URL otherwise.
    #[serde(default)]
    #[ts(optional)]
    pub kind: Option<CatalogKind>,
    /// A bearer token to send with every request (an MCP server behind a gate).
    #[serde(default)]
    #[ts(optional)]
    pub token: Option<String>,
}

/// What pulling every catalog did: one report per catalog pulled, one failure per catalog that
/// could not be (the others are pulled all the same).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PullAllReport {
    pub pulled: Vec<PullReport>,
    pub failed: Vec<PullFailure>,
}

/// A catalog whose pull failed; what its last pull found is unchanged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PullFailure {
    #[ts(type = "number")]
    pub catalog: i64,
    pub url: String,
    pub error: ErrorBody,
}

/// One line of the inventory: a library skill, where it came from and where it is installed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct InventoryItem {
    pub name: String,
    pub origin: Origin,
    /// The live library version.
    #[ts(type = "number | null")]
    pub version: Option<i64>,
    /// The live version's content hash.
    pub digest: Option<String>,
    pub source: SkillProvenance,
    /// The remote catalog it was installed from.
    pub catalog_url: Option<String>,
    pub upstream_version: Option<String>,
    pub upstream_removed: bool,
    pub update_available: bool,
    /// Every known agent folder it is installed in.
    pub installed: Vec<InventoryPlace>,
}

impl App {
    /// Subscribes to a catalog: the URL is checked (`catalog_url_invalid`), its kind found when
    /// not given (`catalog_unreachable`, `catalog_not_recognised`) and the subscription stored
    /// (`catalog_exists` for a URL subscribed already). A token is written to a private file of
    /// its own first and only that file's name is stored. Nothing is pulled yet.
    pub async fn subscribe_catalog(&self, request: NewCatalog) -> Result<RemoteCatalog, ErrorBody> {
        let token = request.token.filter(|t| !t.trim().is_empty());
        if request.url.trim().starts_with("git+") || request.kind == Some(CatalogKind::Git) {
            return self.subscribe_git_catalog(request.url.trim().to_string(), token).await;
        }
        let url = wire::catalog_url(&request.url)?;
        let kind = match request.kind {
            Some(kind) => kind,
            None => Client::detect(&url, token.as_deref()).await?,
        };
        let url = url.to_string();
        let secrets = self.catalog_tokens();
        self.on_library(move |lib| {
            let token_ref = match &token {
                Some(token) => Some(secrets.put(token).map_err(LibraryError::io(secrets.dir()))?),
                None => None,
            };
            let subscribed = lib.subscribe(&url, kind, token_ref.as_deref());
            if let (Err(_), Some(reference)) = (&subscribed, &token_ref) {
                let _ = secrets.remove(reference);
            }
            subscribed
        })
        .await
    }

    /// Subscribes to the git catalog `spec` (`git+URL[#branch]`): checked to be a git source
    /// (`git_source_invalid`); a token is refused (`catalog_url_invalid`), since git reads with
    /// the person's own credentials.
    async fn subscribe_git_catalog(
        &self,
        spec: String,
        token: Option<String>,
    ) -> Result<RemoteCatalog, ErrorBody> {
        match skillcase_library::install::git::parse_spec(&spec) {
            Some(Ok(_)) => {}
            Some(Err(error)) => return Err(error.into()),
            None => {
                return Err(RemoteError::BadUrl {
                    url: spec,
                    reason: "a git catalog starts with git+".into(),
                }
                .into())
            }
        }
        if token.is_some() {
            let reason = "a git catalog is read with your own git credentials; give no token".to_string();
            return Err(RemoteError::BadUrl { url: spec, reason }.into());
        }
        self.on_library(move |lib| lib.subscribe(&spec, CatalogKind::Git, None)).await
    }

    /// Removes a subscription, its token's file and what its pulls found; local copies installed
    /// from it stay.
    pub async fn unsubscribe_catalog(&self, id: i64) -> Result<(), ErrorBody> {
        let secrets = self.catalog_tokens();
        self.on_library(move |lib| {
            let row = lib.catalog_row(id)?;
            lib.unsubscribe(id)?;
            if let Some(reference) = &row.token_ref {
                secrets.remove(reference).map_err(LibraryError::io(secrets.dir()))?;
            }
            Ok(())
        })
        .await
    }

    /// Every subscribed catalog with its last pull.
    pub async fn catalog_subscriptions(&self) -> Result<Vec<RemoteCatalog>, ErrorBody> {
        self.on_library(|lib| lib.remote_catalogs()).await
    }

    /// Pulls one catalog incrementally (see the module): its listing and downloads within
    /// [`PULL_DEADLINE`] (or the application's own, [`crate::AppOptions::pull_deadline`]), then
    /// the recording, which is local. A failure is noted on the subscription (`last_error`) and
    /// leaves what the last pull found as it was.
    pub async fn pull_catalog(&self, id: i64) -> Result<PullReport, ErrorBody> {
        let row = self.on_library(move |lib| lib.catalog_row(id)).await?;
        let deadline = self.inner().pull_deadline;
        let fetched =
            tokio::time::timeout(deadline, self.fetch_catalog(id, &row.url, row.kind, row.token_ref));
        let pulled = match fetched.await {
            Ok(Ok((upstream, downloads))) => {
                self.on_library(move |lib| lib.record_pull(id, upstream, downloads)).await
            }
            Ok(Err(error)) => Err(error),
            Err(_) => Err(RemoteError::Deadline { url: row.url.clone(), seconds: deadline.as_secs() }.into()),
        };
        if let Err(error) = &pulled {
            let noted = format!("{}: {}", error.code, error.message);
            self.on_library(move |lib| lib.record_pull_error(id, noted)).await?;
        }
        pulled
    }

    /// Lists the catalog and downloads what the blob store lacks, straight to disk. Dropped
    /// before it ends (the deadline), its downloads are removed.
    async fn fetch_catalog(
        &self,
        id: i64,
        url: &str,
        kind: CatalogKind,
        token_ref: Option<String>,
    ) -> Result<(Vec<Upstream>, Downloads), ErrorBody> {
        if kind == CatalogKind::Git {
            return self.fetch_git_catalog(url).await;
        }
        let library = self.library()?;
        let limits = library.policy().limits.clone();
        let token = match token_ref {
            Some(reference) => Some(self.catalog_token(id, reference).await?),
            None => None,
        };
        let mut client = Client::open(url, kind, token).await?;
        let upstream = client.list(&limits).await?;
        let listed = upstream.clone();
        let at = url.to_string();
        let (wanted, mut downloads) =
            self.on_library(move |lib| Ok((lib.files_to_fetch(&at, &listed)?, lib.downloads(&at)?))).await?;
        for file in &wanted {
            let mut download = downloads.start(file)?;
            client.fetch(&mut download).await?;
            downloads.finish(download)?;
        }
        Ok((upstream, downloads))
    }

    /// The catalogs' token files of this data directory.
    fn catalog_tokens(&self) -> SecretFiles {
        SecretFiles::catalog_tokens(self.data_dir())
    }

    /// The token of catalog `id`, read from its file.
    async fn catalog_token(&self, id: i64, reference: String) -> Result<String, ErrorBody> {
        let secrets = self.catalog_tokens();
        self.blocking(move |_| {
            secrets.get(&reference).map_err(|source| {
                ErrorBody::from(CatalogTokenError {
                    catalog: id,
                    path: secrets.dir().join(&reference),
                    source,
                })
            })
        })
        .await
    }

    /// Pulls every subscribed catalog, one after the other.
    pub async fn pull_catalogs(&self) -> Result<PullAllReport, ErrorBody> {
        let catalogs = self.catalog_subscriptions().await?;
        let mut report = PullAllReport { pulled: Vec::new(), failed: Vec::new() };
        for catalog in catalogs {
            match self.pull_catalog(catalog.id).await {
                Ok(pulled) => report.pulled.push(pulled),
                Err(error) => {
                    report.failed.push(PullFailure { catalog: catalog.id, url: catalog.url, error })
                }
            }
        }
        Ok(report)
    }

    /// The skills of one remote catalog (all when `None`) as last pulled, removed ones included,
    /// with their local copies and *updates available*.
    pub async fn remote_skills(&self, catalog: Option<i64>) -> Result<Vec<RemoteSkill>, ErrorBody> {
        self.scanned().await?;
        self.on_library(move |lib| lib.remote_skills(catalog)).await
    }

    /// Installs remote skill `name` of `catalog` into the skills directory as a local fork; again
    /// for the same upstream skill, updates the copy.
    pub async fn install_remote_skill(&self, catalog: i64, name: String) -> Result<RemoteInstall, ErrorBody> {
        self.scanned().await?;
        self.on_library(move |lib| lib.install_remote(catalog, &name)).await
    }

    /// Every skill of the library with its origin, live version and digest, source (local, the
    /// factory catalog, or a remote catalog's URL) and every known agent folder it is installed in.
    pub async fn inventory(&self) -> Result<Vec<InventoryItem>, ErrorBody> {
        self.scanned().await?;
        let origins = self.on_library(|lib| lib.skill_origins()).await?;
        let copies = self.installed_library_copies().await?;
        Ok(origins
            .into_iter()
            .map(|o| {
                let installed =
                    copies.iter().filter(|c| c.skill == o.name).map(|c| c.place.clone()).collect();
                InventoryItem {
                    name: o.name,
                    origin: o.origin,
                    version: o.version,
                    digest: o.digest,
                    source: o.source,
                    catalog_url: o.catalog_url,
                    upstream_version: o.upstream_version,
                    upstream_removed: o.upstream_removed,
                    update_available: o.update_available,
                    installed,
                }
            })
            .collect())
    }
}
