//! A remote catalog served by an MCP server's Skills extension, over Streamable HTTP: JSON-RPC
//! `POST`s (`initialize` and `notifications/initialized` first, then `skills/list` page by page
//! and `resources/read` per file), each answered as JSON or as an event stream.
//!
//! Bounded by construction, whatever the server sends: every answer is read up to a byte limit
//! and no further (an event stream is scanned as it arrives, never buffered past the limit); a
//! listing stops at [`MAX_PAGES`] pages, [`MAX_LIST_BYTES`] bytes of answers in all or the page
//! that brings it over [`MAX_SKILLS`] skills (`catalog_too_large`). Answers are decoded into the
//! few fields a catalog needs (not into a generic JSON tree, which costs many times the text), and
//! an answer that is not what its method returns — a `skills/list` without its list of skills —
//! is `catalog_index_invalid`, never read as an empty catalog.

use std::collections::HashMap;

use base64::Engine as _;
use reqwest::header::{HeaderMap, HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

use skillcase_library::remote::wire::{
    Upstream, UpstreamFile, MAX_LIST_BYTES, MAX_PAGES, MAX_PAGE_BYTES, MAX_SKILLS,
};
use skillcase_library::remote::{RemoteError, Wanted};
use skillcase_skill::uri::SkillUri;

use super::client::{read_capped, status_error, unreachable, Client};

/// The protocol version the client asks for in `initialize`.
const MCP_PROTOCOL: &str = "2025-06-18";
/// The Skills extension a catalog server must declare.
const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";
/// The largest `initialize` answer read.
const MAX_INITIALIZE_BYTES: usize = 1024 * 1024;
/// Room for the JSON around a file's content in a `resources/read` answer.
const READ_ENVELOPE_BYTES: u64 = 64 * 1024;

/// What the client knows of its MCP session.
pub(super) struct McpSession {
    session: Option<String>,
    protocol: String,
    next_id: i64,
    /// The `skill://` URI of each file, by skill and path.
    uris: HashMap<(String, String), String>,
}

/// A JSON-RPC answer: the result of type `T`, or an error (a missing one is `None`).
#[derive(Deserialize)]
struct Answer<T> {
    result: Option<T>,
    error: Option<RpcError>,
}

#[derive(Deserialize)]
struct RpcError {
    #[serde(default)]
    code: i64,
    #[serde(default)]
    message: String,
}

/// Only the id of a message on an event stream (everything else is skipped, not kept).
#[derive(Deserialize)]
struct Head {
    #[serde(default)]
    id: Option<Value>,
}

#[derive(Deserialize)]
struct InitializeResult {
    #[serde(default, rename = "protocolVersion")]
    protocol_version: Option<String>,
    #[serde(default)]
    capabilities: Option<Capabilities>,
}

#[derive(Deserialize)]
struct Capabilities {
    #[serde(default)]
    extensions: Option<HashMap<String, serde::de::IgnoredAny>>,
}

/// One page of `skills/list`: its `skills` are required, so an answer without them is refused.
#[derive(Deserialize)]
struct ListPage {
    skills: Vec<ListEntry>,
    #[serde(default, rename = "nextCursor")]
    next_cursor: Option<String>,
}

#[derive(Deserialize)]
struct ListEntry {
    uri: String,
    #[serde(default)]
    frontmatter: Option<Frontmatter>,
    #[serde(default)]
    resources: Vec<Resource>,
}

/// The frontmatter fields a catalog shows; others are skipped.
#[derive(Deserialize, Default)]
struct Frontmatter {
    #[serde(default)]
    description: Option<Value>,
    #[serde(default)]
    version: Option<Value>,
    #[serde(default)]
    metadata: Option<Metadata>,
}

#[derive(Deserialize, Default)]
struct Metadata {
    #[serde(default)]
    version: Option<Value>,
}

#[derive(Deserialize)]
struct Resource {
    #[serde(default)]
    uri: String,
    #[serde(default)]
    digest: String,
    #[serde(default)]
    size: u64,
}

#[derive(Deserialize)]
struct ReadResult {
    contents: Vec<Content>,
}

#[derive(Deserialize)]
struct Content {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    blob: Option<String>,
}

impl Client {
    /// `initialize` (the server must declare the Skills extension), then
    /// `notifications/initialized`.
    pub(super) async fn initialize(&mut self) -> Result<(), RemoteError> {
        self.mcp = Some(McpSession {
            session: None,
            protocol: MCP_PROTOCOL.to_string(),
            next_id: 1,
            uris: HashMap::new(),
        });
        let params = json!({
            "protocolVersion": MCP_PROTOCOL,
            "capabilities": {},
            "clientInfo": { "name": "skillcase-catalog", "version": env!("CARGO_PKG_VERSION") },
        });
        let Some((bytes, session)) = self.request("initialize", params, MAX_INITIALIZE_BYTES).await? else {
            return Err(self.too_large(format!("the initialize answer is over {MAX_INITIALIZE_BYTES} bytes")));
        };
        let result: InitializeResult = self.decode("initialize", &bytes)?;
        let state = self.session();
        state.session = session;
        if let Some(version) = result.protocol_version {
            state.protocol = version;
        }
        let declared = result
            .capabilities
            .and_then(|c| c.extensions)
            .is_some_and(|extensions| extensions.contains_key(SKILLS_EXTENSION));
        if !declared {
            return Err(RemoteError::NotRecognised { url: self.url.to_string() });
        }
        self.notify("notifications/initialized").await
    }

    /// Every skill of every `skills/list` page, within the listing's limits (see the module).
    pub(super) async fn mcp_list(&mut self) -> Result<Vec<Upstream>, RemoteError> {
        let mut skills = Vec::new();
        let mut cursor: Option<String> = None;
        let mut read = 0usize;
        for _ in 0..MAX_PAGES {
            let params = match cursor.take() {
                Some(c) => json!({ "cursor": c }),
                None => json!({}),
            };
            let cap = MAX_PAGE_BYTES.min(MAX_LIST_BYTES - read);
            let Some((bytes, _)) = self.request("skills/list", params, cap).await? else {
                return Err(self.too_large(if cap < MAX_PAGE_BYTES {
                    format!("the skills/list answers are over {} MiB in all", MAX_LIST_BYTES / 1024 / 1024)
                } else {
                    format!("a skills/list answer is over {} MiB", MAX_PAGE_BYTES / 1024 / 1024)
                }));
            };
            read += bytes.len();
            let page: ListPage = self.decode("skills/list", &bytes)?;
            drop(bytes);
            if skills.len() + page.skills.len() > MAX_SKILLS {
                return Err(self.too_large(format!("over {MAX_SKILLS} skills listed")));
            }
            for entry in page.skills {
                let skill = self.upstream_of(entry)?;
                skills.push(skill);
            }
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => return Ok(skills),
            }
        }
        Err(self.too_large(format!("over {MAX_PAGES} pages of skills")))
    }

    /// One `skills/list` entry as an upstream skill; each file's URI is kept for
    /// `resources/read`.
    fn upstream_of(&mut self, entry: ListEntry) -> Result<Upstream, RemoteError> {
        let name = SkillUri::parse(&entry.uri)
            .map(|u| u.name)
            .ok_or_else(|| self.bad(&format!("`{}` is not a skill:// URI", entry.uri)))?;
        let frontmatter = entry.frontmatter.unwrap_or_default();
        let text = |value: Option<Value>| value.and_then(|v| v.as_str().map(str::to_string));
        let version =
            text(frontmatter.version).or_else(|| text(frontmatter.metadata.and_then(|m| m.version)));
        let mut files = Vec::with_capacity(entry.resources.len());
        for resource in entry.resources {
            let path = SkillUri::parse(&resource.uri)
                .filter(|u| u.name == name)
                .map(|u| u.path)
                .ok_or_else(|| self.bad(&format!("`{}` is not a file of skill `{name}`", resource.uri)))?;
            let digest = resource.digest.strip_prefix("sha256:").unwrap_or(&resource.digest);
            let sha256 = digest.to_ascii_lowercase();
            self.session().uris.insert((name.clone(), path.clone()), resource.uri);
            files.push(UpstreamFile { path, sha256, size: resource.size });
        }
        Ok(Upstream {
            name,
            version,
            description: text(frontmatter.description).unwrap_or_default(),
            files,
            revoked: false,
        })
    }

    /// The bytes of one file through `resources/read` (text as is, a `blob` decoded from
    /// base64); the answer is read up to what that file's size can take once escaped or encoded.
    pub(super) async fn mcp_read(&mut self, wanted: &Wanted) -> Result<Vec<u8>, RemoteError> {
        let key = (wanted.skill.clone(), wanted.path.clone());
        let uri = self.session().uris.get(&key).cloned().unwrap_or_default();
        // Text escaped in JSON takes at most 6 bytes a byte (`\u0000`); base64 takes 4 for 3.
        let cap = wanted.size.saturating_mul(6).saturating_add(READ_ENVELOPE_BYTES);
        let cap = usize::try_from(cap).unwrap_or(usize::MAX);
        let Some((bytes, _)) = self.request("resources/read", json!({ "uri": uri }), cap).await? else {
            return Err(RemoteError::DigestMismatch {
                url: self.url.to_string(),
                skill: wanted.skill.clone(),
                path: wanted.path.clone(),
                reason: format!(
                    "the answer is far larger than the {} bytes the catalog announced",
                    wanted.size
                ),
            });
        };
        let result: ReadResult = self.decode("resources/read", &bytes)?;
        drop(bytes);
        let content = result.contents.into_iter().next();
        match content {
            Some(Content { text: Some(text), .. }) => Ok(text.into_bytes()),
            Some(Content { blob: Some(blob), .. }) => base64::engine::general_purpose::STANDARD
                .decode(blob)
                .map_err(|e| self.bad(&format!("resources/read of {uri} is not base64: {e}"))),
            _ => Err(self.bad(&format!("resources/read of {uri} has no text or blob"))),
        }
    }

    fn session(&mut self) -> &mut McpSession {
        self.mcp.as_mut().expect("initialize runs first")
    }

    /// Decodes the answer to `method`: its result, a JSON-RPC error as `catalog_mcp_error`, or
    /// `catalog_index_invalid` when it is neither.
    fn decode<T: DeserializeOwned>(&self, method: &str, bytes: &[u8]) -> Result<T, RemoteError> {
        let answer: Answer<T> = serde_json::from_slice(bytes)
            .map_err(|e| self.bad(&format!("the answer to {method} is not what {method} returns: {e}")))?;
        if let Some(error) = answer.error {
            return Err(RemoteError::Mcp {
                url: self.url.to_string(),
                method: method.to_string(),
                code: error.code,
                message: error.message,
            });
        }
        answer.result.ok_or_else(|| self.bad(&format!("{method} answered no result")))
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

    /// POSTs one request and reads the message that answers it (the JSON body, or the event on
    /// the stream whose id is the request's), reading at most `cap` bytes: `None` past them.
    /// Returns the message's bytes and the session id the server gave, if any.
    async fn request(
        &mut self,
        method: &str,
        params: Value,
        cap: usize,
    ) -> Result<Option<(Vec<u8>, Option<String>)>, RemoteError> {
        let id = {
            let mcp = self.session();
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
        let message = if stream {
            self.read_events(response, id, cap).await?
        } else {
            read_capped(&self.url, response, cap).await?
        };
        Ok(message.map(|bytes| (bytes, session)))
    }

    /// Reads server-sent events as they arrive until the one whose JSON-RPC id is `id` (its data,
    /// the JSON message); `None` once `cap` bytes were read without it.
    async fn read_events(
        &self,
        mut response: reqwest::Response,
        id: i64,
        cap: usize,
    ) -> Result<Option<Vec<u8>>, RemoteError> {
        let mut buffer: Vec<u8> = Vec::new();
        // How much of `buffer` is known to hold no event boundary.
        let mut scanned = 0usize;
        let mut read = 0usize;
        loop {
            let Some(chunk) = response.chunk().await.map_err(|e| unreachable(&self.url, &e))? else {
                return Err(self.bad("the event stream ended before the answer"));
            };
            read += chunk.len();
            if read > cap {
                return Ok(None);
            }
            // A JSON message never holds a raw CR, so dropping them makes every line end `\n`.
            buffer.extend(chunk.iter().filter(|b| **b != b'\r'));
            while let Some(end) = event_end(&buffer, scanned.saturating_sub(1)) {
                let data = event_data(&buffer[..end]);
                let head = serde_json::from_slice::<Head>(&data).ok();
                if head.and_then(|h| h.id).and_then(|v| v.as_i64()) == Some(id) {
                    return Ok(Some(data));
                }
                buffer.drain(..end + 2);
                scanned = 0;
            }
            scanned = buffer.len();
        }
    }
}

/// Where the first event of `buffer` ends (the `\n\n` after it), looking from `from`.
fn event_end(buffer: &[u8], from: usize) -> Option<usize> {
    buffer.get(from..)?.windows(2).position(|w| w == b"\n\n").map(|at| from + at)
}

/// The data of one event: its `data:` lines, joined by newlines.
fn event_data(event: &[u8]) -> Vec<u8> {
    let mut data = Vec::new();
    for line in event.split(|b| *b == b'\n') {
        if let Some(value) = line.strip_prefix(b"data:") {
            if !data.is_empty() {
                data.push(b'\n');
            }
            data.extend_from_slice(value.strip_prefix(b" ").unwrap_or(value));
        }
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_its_data_lines_joined_and_ends_at_a_blank_line() {
        let stream = b"event: message\ndata: {\"id\":\ndata:2}\n\ndata: next";
        let end = event_end(stream, 0).unwrap();
        assert_eq!(event_data(&stream[..end]), b"{\"id\":\n2}");
        assert_eq!(event_end(&stream[end + 2..], 0), None, "the next event is not complete yet");
    }
}
