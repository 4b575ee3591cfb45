//! The network side of a remote catalog: one [`Client`] per pull over HTTP(S) with rustls,
//! reading a static index (`GET` the index, then `GET <folder>/<skill>/<path>` per file) or an
//! MCP server's Skills extension over Streamable HTTP (JSON-RPC `POST`s: `initialize` and
//! `notifications/initialized` first, then `skills/list` page by page and `resources/read` per
//! file; answers as JSON or as an event stream). Every body is read within a limit; a file never
//! reads past the size the catalog announced.

use std::collections::HashMap;
use std::time::Duration;

use base64::Engine as _;
use reqwest::header::{HeaderMap, HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use reqwest::Url;
use serde_json::{json, Value};

use skillcase_library::remote::wire::{self, Upstream, UpstreamFile, MAX_INDEX_BYTES};
use skillcase_library::remote::{CatalogKind, RemoteError, Wanted};
use skillcase_skill::policy::ImportLimits;
use skillcase_skill::uri::SkillUri;

/// The protocol version the client asks for in `initialize`.
const MCP_PROTOCOL: &str = "2025-06-18";
/// The Skills extension a catalog server must declare.
const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";
/// How long one request may take in all, and to connect.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Pages of `skills/list` read at most (a server that never ends its cursor is cut off).
const MAX_PAGES: usize = 1_000;

/// A catalog being read.
pub struct Client {
    http: reqwest::Client,
    url: Url,
    token: Option<String>,
    kind: CatalogKind,
    mcp: Option<McpSession>,
    /// The `skill://` URI of each file, by skill and path (MCP only).
    uris: HashMap<(String, String), String>,
}

struct McpSession {
    session: Option<String>,
    protocol: String,
    next_id: i64,
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
fn unreachable(url: &Url, e: &reqwest::Error) -> RemoteError {
    let mut reason = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(inner) = source {
        reason = format!("{reason}: {inner}");
        source = inner.source();
    }
    RemoteError::Unreachable { url: url.to_string(), status: e.status().map(|s| s.as_u16()), reason }
}

fn status_error(url: &Url, status: reqwest::StatusCode) -> RemoteError {
    RemoteError::Unreachable {
        url: url.to_string(),
        status: Some(status.as_u16()),
        reason: format!("HTTP {status}"),
    }
}

/// Reads a whole body, refusing one over `cap` bytes.
async fn read_capped(
    url: &Url,
    mut response: reqwest::Response,
    cap: usize,
) -> Result<Option<Vec<u8>>, RemoteError> {
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
            uris: HashMap::new(),
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
        let mut client = Client { http: http_client()?, url, token, kind, mcp: None, uris: HashMap::new() };
        if kind == CatalogKind::Mcp {
            client.initialize().await?;
        }
        Ok(client)
    }

    /// Every skill the catalog offers, checked ([`wire::check`]).
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
        }
    }

    /// The bytes of one file, never more than the catalog announced (the caller checks them).
    pub async fn fetch(&mut self, wanted: &Wanted) -> Result<Vec<u8>, RemoteError> {
        let url_text = self.url.to_string();
        let too_many = || RemoteError::DigestMismatch {
            url: url_text.clone(),
            skill: wanted.skill.clone(),
            path: wanted.path.clone(),
            reason: format!("more than the {} bytes the catalog announced arrived", wanted.size),
        };
        match self.kind {
            CatalogKind::Index => {
                let url = wire::file_url(&self.url, &wanted.skill, &wanted.path);
                let response = self.get(url.clone()).await?;
                read_capped(&url, response, wanted.size as usize).await?.ok_or_else(too_many)
            }
            CatalogKind::Mcp => {
                let key = (wanted.skill.clone(), wanted.path.clone());
                let uri = self.uris.get(&key).cloned().unwrap_or_default();
                let result = self.call("resources/read", json!({ "uri": uri })).await?;
                let content = result.get("contents").and_then(|c| c.get(0)).cloned().unwrap_or(Value::Null);
                let bytes = if let Some(text) = content.get("text").and_then(Value::as_str) {
                    text.as_bytes().to_vec()
                } else if let Some(blob) = content.get("blob").and_then(Value::as_str) {
                    base64::engine::general_purpose::STANDARD
                        .decode(blob)
                        .map_err(|e| self.bad(&format!("resources/read of {uri} is not base64: {e}")))?
                } else {
                    return Err(self.bad(&format!("resources/read of {uri} has no text or blob")));
                };
                if bytes.len() as u64 > wanted.size {
                    return Err(too_many());
                }
                Ok(bytes)
            }
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

    fn bad(&self, reason: &str) -> RemoteError {
        RemoteError::BadIndex {
            url: self.url.to_string(),
            skill: None,
            path: None,
            reason: reason.to_string(),
        }
    }

    // MCP over Streamable HTTP.

    async fn initialize(&mut self) -> Result<(), RemoteError> {
        self.mcp = Some(McpSession { session: None, protocol: MCP_PROTOCOL.to_string(), next_id: 1 });
        let params = json!({
            "protocolVersion": MCP_PROTOCOL,
            "capabilities": {},
            "clientInfo": { "name": "skillcase-catalog", "version": env!("CARGO_PKG_VERSION") },
        });
        let (result, session) = self.post("initialize", params).await?;
        let session_state = self.mcp.as_mut().expect("set above");
        session_state.session = session;
        if let Some(version) = result.get("protocolVersion").and_then(Value::as_str) {
            session_state.protocol = version.to_string();
        }
        let declared =
            result.pointer("/capabilities/extensions").and_then(|e| e.get(SKILLS_EXTENSION)).is_some();
        if !declared {
            return Err(RemoteError::NotRecognised { url: self.url.to_string() });
        }
        self.notify("notifications/initialized").await
    }

    async fn mcp_list(&mut self) -> Result<Vec<Upstream>, RemoteError> {
        let mut skills = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let params = match &cursor {
                Some(c) => json!({ "cursor": c }),
                None => json!({}),
            };
            let page = self.call("skills/list", params).await?;
            let listed = page.get("skills").and_then(Value::as_array).cloned().unwrap_or_default();
            for entry in listed {
                skills.push(self.upstream_of(&entry)?);
            }
            cursor = page.get("nextCursor").and_then(Value::as_str).map(str::to_string);
            if cursor.is_none() {
                return Ok(skills);
            }
        }
        Err(RemoteError::TooLarge {
            url: self.url.to_string(),
            reason: format!("over {MAX_PAGES} pages of skills"),
        })
    }

    /// One `skills/list` entry (`{uri, frontmatter, resources: [{uri, digest, size}]}`) as an
    /// upstream skill; each file's URI is kept for `resources/read`.
    fn upstream_of(&mut self, entry: &Value) -> Result<Upstream, RemoteError> {
        let uri = entry.get("uri").and_then(Value::as_str).unwrap_or_default();
        let (name, _) = SkillUri::parse(uri)
            .map(|u| (u.name, u.path))
            .ok_or_else(|| self.bad(&format!("`{uri}` is not a skill:// URI")))?;
        let frontmatter = entry.get("frontmatter").cloned().unwrap_or(Value::Null);
        let text = |key: &str| frontmatter.get(key).and_then(Value::as_str).map(str::to_string);
        let version = text("version")
            .or_else(|| frontmatter.pointer("/metadata/version").and_then(Value::as_str).map(str::to_string));
        let mut files = Vec::new();
        for resource in entry.get("resources").and_then(Value::as_array).cloned().unwrap_or_default() {
            let file_uri = resource.get("uri").and_then(Value::as_str).unwrap_or_default().to_string();
            let (owner, path) = SkillUri::parse(&file_uri)
                .map(|u| (u.name, u.path))
                .filter(|(owner, _)| *owner == name)
                .ok_or_else(|| self.bad(&format!("`{file_uri}` is not a file of skill `{name}`")))?;
            let digest = resource.get("digest").and_then(Value::as_str).unwrap_or_default();
            let sha256 = digest.strip_prefix("sha256:").unwrap_or(digest).to_ascii_lowercase();
            let size = resource.get("size").and_then(Value::as_u64).unwrap_or(0);
            self.uris.insert((owner, path.clone()), file_uri);
            files.push(UpstreamFile { path, sha256, size });
        }
        Ok(Upstream {
            name,
            version,
            description: text("description").unwrap_or_default(),
            files,
            revoked: false,
        })
    }

    /// A JSON-RPC request after `initialize`; its `result`.
    async fn call(&mut self, method: &str, params: Value) -> Result<Value, RemoteError> {
        Ok(self.post(method, params).await?.0)
    }

    fn headers(&self, method: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_static("application/json, text/event-stream"));
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let Ok(value) = HeaderValue::from_str(method) {
            headers.insert("Mcp-Method", value);
        }
        if let Some(mcp) = &self.mcp {
            if let Some(session) = mcp.session.as_deref().and_then(|s| HeaderValue::from_str(s).ok()) {
                headers.insert("Mcp-Session-Id", session);
            }
            if method != "initialize" {
                if let Ok(value) = HeaderValue::from_str(&mcp.protocol) {
                    headers.insert("MCP-Protocol-Version", value);
                }
            }
        }
        if let Some(token) =
            self.token.as_deref().and_then(|t| HeaderValue::from_str(&format!("Bearer {t}")).ok())
        {
            headers.insert(AUTHORIZATION, token);
        }
        headers
    }

    async fn notify(&mut self, method: &str) -> Result<(), RemoteError> {
        self.send(method, json!({ "jsonrpc": "2.0", "method": method })).await.map(drop)
    }

    /// POSTs one JSON-RPC message; an answer other than 2xx is the status's error.
    async fn send(&self, method: &str, body: Value) -> Result<reqwest::Response, RemoteError> {
        let response = self
            .http
            .post(self.url.clone())
            .headers(self.headers(method))
            .body(body.to_string())
            .send()
            .await
            .map_err(|e| unreachable(&self.url, &e))?;
        if !response.status().is_success() {
            return Err(status_error(&self.url, response.status()));
        }
        Ok(response)
    }

    /// POSTs one request and reads its answer (JSON, or the event stream until the message that
    /// answers it). Returns the `result` and the session id the server gave, if any.
    async fn post(&mut self, method: &str, params: Value) -> Result<(Value, Option<String>), RemoteError> {
        let id = {
            let mcp = self.mcp.as_mut().expect("initialize runs first");
            mcp.next_id += 1;
            mcp.next_id
        };
        let body = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        let response = self.send(method, body).await?;
        let session =
            response.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()).map(str::to_string);
        let stream = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        let message =
            if stream { self.read_events(response, id).await? } else { self.read_json(response).await? };
        if let Some(error) = message.get("error") {
            return Err(RemoteError::Mcp {
                url: self.url.to_string(),
                method: method.to_string(),
                code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
                message: error.get("message").and_then(Value::as_str).unwrap_or_default().to_string(),
            });
        }
        let result = message
            .get("result")
            .cloned()
            .ok_or_else(|| self.bad(&format!("{method} answered no result")))?;
        Ok((result, session))
    }

    async fn read_json(&self, response: reqwest::Response) -> Result<Value, RemoteError> {
        let body =
            read_capped(&self.url, response, 4 * MAX_INDEX_BYTES).await?.ok_or_else(|| self.too_large())?;
        serde_json::from_slice(&body).map_err(|e| self.bad(&format!("the answer is not JSON: {e}")))
    }

    /// Reads server-sent events until the one whose JSON-RPC id is `id`.
    async fn read_events(&self, mut response: reqwest::Response, id: i64) -> Result<Value, RemoteError> {
        let mut buffer: Vec<u8> = Vec::new();
        let mut read = 0usize;
        loop {
            let Some(chunk) = response.chunk().await.map_err(|e| unreachable(&self.url, &e))? else {
                return Err(self.bad("the event stream ended before the answer"));
            };
            read += chunk.len();
            if read > 4 * MAX_INDEX_BYTES {
                return Err(self.too_large());
            }
            // A JSON message never holds a raw CR, so dropping them makes every line end `\n`.
            buffer.extend(chunk.iter().filter(|b| **b != b'\r'));
            let Some(end) = buffer.windows(2).rposition(|w| w == b"\n\n") else { continue };
            let complete = String::from_utf8_lossy(&buffer[..end]).into_owned();
            for event in complete.split("\n\n") {
                let data: Vec<&str> = event
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(|d| d.strip_prefix(' ').unwrap_or(d))
                    .collect();
                if data.is_empty() {
                    continue;
                }
                if let Ok(message) = serde_json::from_str::<Value>(&data.join("\n")) {
                    if message.get("id").and_then(Value::as_i64) == Some(id) {
                        return Ok(message);
                    }
                }
            }
            buffer.drain(..end + 2);
        }
    }

    fn too_large(&self) -> RemoteError {
        RemoteError::TooLarge { url: self.url.to_string(), reason: "an answer is over the limit".into() }
    }
}
