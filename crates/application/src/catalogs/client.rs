//! The network side of a remote catalog: one [`Client`] per pull over HTTP(S) with rustls,
//! reading a static index (`GET` the index, then `GET <folder>/<skill>/<path>` per file) or an
//! MCP server's Skills extension over Streamable HTTP ([`super::mcp`]).
//!
//! Everything read is bounded while it is read, never after: every body is read chunk by chunk up
//! to a byte limit (a `Content-Length` over it is refused before a byte is read), a file never
//! past the size the catalog announced, and a file's bytes go straight to the pull's
//! [`Downloads`] on disk rather than into memory.

use std::time::Duration;

use reqwest::header::ACCEPT;
use reqwest::Url;

use skillcase_library::remote::wire::{self, Upstream, MAX_INDEX_BYTES};
use skillcase_library::remote::{CatalogKind, Download, RemoteError};
use skillcase_library::LibraryError;
use skillcase_skill::policy::ImportLimits;

use super::mcp::McpSession;

/// How long one request may take in all, and to connect.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// A catalog being read.
pub struct Client {
    pub(super) http: reqwest::Client,
    pub(super) url: Url,
    pub(super) token: Option<String>,
    kind: CatalogKind,
    pub(super) mcp: Option<McpSession>,
}

fn http_client() -> Result<reqwest::Client, RemoteError> {
    let _already_installed = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::limited(5))
        .retry(reqwest::retry::never())
        .timeout(REQUEST_TIMEOUT)
        .connect_timeout(CONNECT_TIMEOUT)
        .user_agent(concat!("Skillcase/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| RemoteError::Unreachable {
            url: String::new(),
            status: None,
            reason: format!("the HTTP client could not start: {e}"),
        })
}

/// A network failure as `catalog_unreachable`, with the innermost cause.
pub(super) fn unreachable(url: &Url, e: &reqwest::Error) -> RemoteError {
    let mut reason = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(inner) = source {
        reason = format!("{reason}: {inner}");
        source = inner.source();
    }
    RemoteError::Unreachable { url: url.to_string(), status: e.status().map(|s| s.as_u16()), reason }
}

pub(super) fn status_error(url: &Url, status: reqwest::StatusCode) -> RemoteError {
    RemoteError::Unreachable {
        url: url.to_string(),
        status: Some(status.as_u16()),
        reason: format!("HTTP {status}"),
    }
}

/// Reads a whole body of at most `cap` bytes; `None`, with the rest left unread, as soon as it
/// is known to be longer (from its `Content-Length`, or at the byte that passes the cap).
pub(super) async fn read_capped(
    url: &Url,
    mut response: reqwest::Response,
    cap: usize,
) -> Result<Option<Vec<u8>>, RemoteError> {
    if response.content_length().is_some_and(|announced| announced > cap as u64) {
        return Ok(None);
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| unreachable(url, &e))? {
        if body.len() + chunk.len() > cap {
            return Ok(None);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Some(body))
}

impl Client {
    /// Finds what kind of catalog `url` is: a `GET` answered with a skills index is an index;
    /// otherwise an `initialize` answered by a server declaring the Skills extension is MCP. A
    /// server that answers 401 or 403 is `catalog_unreachable` with that status (a token is
    /// missing or wrong), one that answers nothing useful `catalog_not_recognised`.
    pub async fn detect(url: &Url, token: Option<&str>) -> Result<CatalogKind, RemoteError> {
        let http = http_client()?;
        let mut get = http.get(url.clone()).header(ACCEPT, "application/json");
        if let Some(token) = token {
            get = get.bearer_auth(token);
        }
        let mut reached = None;
        match get.send().await {
            Ok(response) if response.status().is_success() => {
                if let Some(body) = read_capped(url, response, MAX_INDEX_BYTES).await? {
                    if wire::looks_like_index(&body) {
                        return Ok(CatalogKind::Index);
                    }
                }
            }
            Ok(_) => {}
            Err(e) => reached = Some(unreachable(url, &e)),
        }
        let mut client = Client {
            http,
            url: url.clone(),
            token: token.map(str::to_string),
            kind: CatalogKind::Mcp,
            mcp: None,
        };
        match client.initialize().await {
            Ok(()) => Ok(CatalogKind::Mcp),
            Err(RemoteError::Unreachable { status: None, .. }) if reached.is_some() => {
                Err(reached.expect("checked"))
            }
            // Nothing answered, or a server that wants a (different) token: say so.
            Err(e @ RemoteError::Unreachable { status: None | Some(401 | 403), .. }) => Err(e),
            Err(_) => Err(RemoteError::NotRecognised { url: url.to_string() }),
        }
    }

    /// A client for the catalog at `url` of `kind`; an MCP catalog is initialised here.
    pub async fn open(url: &str, kind: CatalogKind, token: Option<String>) -> Result<Client, RemoteError> {
        let url = wire::catalog_url(url)?;
        let mut client = Client { http: http_client()?, url, token, kind, mcp: None };
        if kind == CatalogKind::Mcp {
            client.initialize().await?;
        }
        Ok(client)
    }

    /// Every skill the catalog offers, checked ([`wire::check`]). An MCP catalog's pages are
    /// bounded while they are read ([`super::mcp`]); an answer that is not a list of skills is
    /// `catalog_index_invalid`.
    pub async fn list(&mut self, limits: &ImportLimits) -> Result<Vec<Upstream>, RemoteError> {
        match self.kind {
            CatalogKind::Index => {
                let response = self.get(self.url.clone()).await?;
                let body = read_capped(&self.url, response, MAX_INDEX_BYTES).await?.ok_or_else(|| {
                    RemoteError::TooLarge {
                        url: self.url.to_string(),
                        reason: format!("the index is over {} MiB", MAX_INDEX_BYTES / 1024 / 1024),
                    }
                })?;
                wire::parse_index(self.url.as_str(), &body, limits)
            }
            CatalogKind::Mcp => {
                let skills = self.mcp_list().await?;
                wire::check(self.url.as_str(), skills, limits)
            }
            CatalogKind::Git => Err(self.bad("a git catalog is read through git, not over HTTP")),
        }
    }

    /// Downloads one file into `into`, chunk by chunk as it arrives; more bytes than the catalog
    /// announced stop it (`catalog_digest_mismatch`).
    pub async fn fetch(&mut self, into: &mut Download) -> Result<(), LibraryError> {
        match self.kind {
            CatalogKind::Index => {
                let wanted = into.wanted();
                let url = wire::file_url(&self.url, &wanted.skill, &wanted.path);
                let mut response = self.get(url.clone()).await?;
                while let Some(chunk) = response.chunk().await.map_err(|e| unreachable(&url, &e))? {
                    into.write(&chunk)?;
                }
                Ok(())
            }
            CatalogKind::Mcp => {
                let bytes = self.mcp_read(into.wanted()).await?;
                into.write(&bytes)
            }
            CatalogKind::Git => Err(self.bad("a git catalog is read through git, not over HTTP").into()),
        }
    }

    async fn get(&self, url: Url) -> Result<reqwest::Response, RemoteError> {
        let mut request = self.http.get(url.clone());
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.map_err(|e| unreachable(&url, &e))?;
        if !response.status().is_success() {
            return Err(status_error(&url, response.status()));
        }
        Ok(response)
    }

    /// `catalog_index_invalid` for the whole catalog.
    pub(super) fn bad(&self, reason: &str) -> RemoteError {
        RemoteError::BadIndex {
            url: self.url.to_string(),
            skill: None,
            path: None,
            reason: reason.to_string(),
        }
    }

    /// `catalog_too_large` for the whole catalog.
    pub(super) fn too_large(&self, reason: String) -> RemoteError {
        RemoteError::TooLarge { url: self.url.to_string(), reason }
    }
}
