//! The MCP clients connected right now (SPEC D3), for Settings → Agents (MCP): each one's name
//! and version as it introduced itself, and how it is connected.
//!
//! Three kinds of connection, one registry:
//!
//! - **Held** — a connection with a lifetime: `skillcase mcp` over stdio, or a Streamable HTTP
//!   session that began with `initialize`. The front end holds an [`McpConnection`] for as long
//!   as the connection lasts; dropping it removes the client at once.
//! - **Leased** — the 2026-07-28 protocol has no session: every request names its client. Each
//!   request renews a lease of [`LEASE`]; an open `subscriptions/listen` stream holds the client
//!   like a connection. A client that stops calling goes after the lease runs out.
//! - **Other processes** — a client of `skillcase mcp` (stdio) is connected to that process, not
//!   to the desktop. Each such process keeps a small file per client in `mcp-clients/` of the
//!   data directory, rewritten every [`HEARTBEAT`]; the list includes the files of other
//!   processes fresher than [`STALE`], so the desktop sees agents started by Claude Desktop or
//!   Codex too, and a process that crashed stops counting on its own.
//!
//! Every change is announced as [`DomainEvent::McpClientsChanged`]: in-process changes at once,
//! the rest by the sweep [`App::start`](crate::App::start) runs. The sweep is event-driven, so a
//! desktop with no agent connected never wakes for it: it runs when another process writes or
//! removes a client file (an inotify watch on `mcp-clients/`), when this process gains a client,
//! and when the earliest lease or file is due to run out; only a process holding stdio clients
//! keeps the [`HEARTBEAT`], to refresh its own files.
//!
//! The registry is bounded whatever clients send: a name is kept to [`MAX_NAME_CHARS`] and a
//! version to [`MAX_VERSION_CHARS`], and at most [`MAX_LEASED`] session-less clients are kept — a
//! new one past that takes the place of the one heard from longest ago (one with an open stream
//! is never dropped; when every place is held so, the new client is served but not listed).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

use notify::{EventKind, RecursiveMode, Watcher};
use serde::{Deserialize, Serialize};
use tokio::sync::Notify;
use ts_rs::TS;

use skillcase_common::clock;
use skillcase_common::events::{DomainEvent, EventBus};

/// How long a client of the session-less protocol counts as connected after its last request.
pub const LEASE: Duration = Duration::from_secs(60);
/// How often the sweep runs and a stdio process refreshes its clients' files.
pub const HEARTBEAT: Duration = Duration::from_secs(2);
/// A client file not refreshed for this long belongs to a process that is gone.
pub const STALE: Duration = Duration::from_secs(10);
/// The folder of the data directory where stdio processes announce their clients.
pub const CLIENTS_DIR: &str = "mcp-clients";
/// The most characters of a client's name that are kept (and shown).
pub const MAX_NAME_CHARS: usize = 128;
/// The most characters of a client's version that are kept.
pub const MAX_VERSION_CHARS: usize = 64;
/// The most session-less clients listed at once.
pub const MAX_LEASED: usize = 64;

/// How a client reaches Skillcase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "McpTransport")]
pub enum McpTransport {
    /// `skillcase mcp`, started by the client as a child process.
    Stdio,
    /// `POST /mcp` on the local API's port.
    StreamableHttp,
}

/// One MCP client connected right now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct McpClient {
    /// The client's `clientInfo.name` (`claude-code`, `Visual Studio Code`, ...).
    pub name: String,
    /// The client's `clientInfo.version`.
    pub version: String,
    pub transport: McpTransport,
    /// When it connected (RFC 3339, UTC).
    pub connected_at: String,
}

/// What a front end knows about a client when it first hears from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMcpClient {
    pub name: String,
    pub version: String,
    pub transport: McpTransport,
}

/// The registry of one application.
#[derive(Debug)]
pub(crate) struct McpClients {
    state: Mutex<Registry>,
    events: EventBus,
    /// `<data dir>/mcp-clients`.
    dir: PathBuf,
    /// Wakes the sweep before its deadline: a client of this process that needs sweeping, or a
    /// change to another process's file.
    wake: Notify,
}

#[derive(Debug, Default)]
struct Registry {
    entries: BTreeMap<String, Entry>,
    next_id: u64,
    /// What the last sweep saw, to announce only real changes.
    last_seen: Vec<McpClient>,
    /// Every distinct list handed to a reader since the last sweep: a client that connected and
    /// left between two sweeps leaves both sweeps' lists equal, yet a reader may hold it.
    handed: Vec<Vec<McpClient>>,
}

impl Registry {
    /// Makes a place for one more leased client, as the module says; false when every place is
    /// held by an open stream.
    fn make_room_for_a_lease(&mut self, now: Instant) -> bool {
        self.entries.retain(|_, entry| entry.is_live(now));
        if self.entries.values().filter(|entry| entry.leased_until.is_some()).count() < MAX_LEASED {
            return true;
        }
        let oldest = self
            .entries
            .iter()
            .filter(|(_, entry)| entry.holds == 0)
            .filter_map(|(key, entry)| Some((entry.leased_until?, key.clone())))
            .min();
        match oldest {
            Some((_, key)) => {
                self.entries.remove(&key);
                true
            }
            None => false,
        }
    }
}

#[derive(Debug)]
struct Entry {
    client: McpClient,
    holds: usize,
    /// Leased entries outlive their holds until the lease runs out.
    leased_until: Option<Instant>,
}

impl Entry {
    fn is_live(&self, now: Instant) -> bool {
        self.holds > 0 || self.leased_until.is_some_and(|until| until > now)
    }
}

/// A held connection: the client counts as connected until this is dropped.
#[derive(Debug)]
pub struct McpConnection {
    clients: Arc<McpClients>,
    key: String,
}

impl Drop for McpConnection {
    fn drop(&mut self) {
        self.clients.release(&self.key);
    }
}

impl McpClients {
    pub(crate) fn new(data_dir: &Path, events: EventBus) -> Self {
        McpClients {
            state: Mutex::new(Registry::default()),
            events,
            dir: data_dir.join(CLIENTS_DIR),
            wake: Notify::new(),
        }
    }

    /// Resolves when something asks for a sweep before its deadline (a wake-up that came while
    /// nobody waited is kept for the next wait).
    pub(crate) async fn woken(&self) {
        self.wake.notified().await;
    }

    /// Watches `mcp-clients/` so another process's client file wakes the sweep; `None` when the
    /// folder cannot be watched (the sweep then keeps the [`HEARTBEAT`]). Only a client file
    /// written, renamed into place or removed by another process wakes it: this process's own
    /// files are rewritten by the sweep, and the sweep reads the folder, so either would
    /// otherwise wake it forever.
    pub(crate) fn watch_others(self: &Arc<Self>) -> Option<notify::RecommendedWatcher> {
        std::fs::create_dir_all(&self.dir).ok()?;
        let own = format!("{}-", std::process::id());
        let clients = Arc::downgrade(self);
        let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let others = match event {
                Ok(event) => {
                    matches!(event.kind, EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_))
                        && event.paths.iter().any(|path| {
                            let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
                            name.ends_with(".json") && !name.starts_with(&own)
                        })
                }
                Err(_) => true,
            };
            if let (true, Some(clients)) = (others, clients.upgrade()) {
                clients.wake.notify_one();
            }
        })
        .ok()?;
        watcher.watch(&self.dir, RecursiveMode::NonRecursive).ok()?;
        Some(watcher)
    }

    fn lock(&self) -> MutexGuard<'_, Registry> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Holds a new connection of `client` (a stdio client or an HTTP session).
    pub(crate) fn connect(self: &Arc<Self>, client: NewMcpClient) -> McpConnection {
        let key = {
            let mut registry = self.lock();
            registry.next_id += 1;
            let key = format!("{}-{}", std::process::id(), registry.next_id);
            let entry = Entry { client: stamped(client), holds: 1, leased_until: None };
            registry.entries.insert(key.clone(), entry);
            key
        };
        self.write_file(&key);
        self.events.publish(DomainEvent::McpClientsChanged);
        self.wake.notify_one();
        McpConnection { clients: Arc::clone(self), key }
    }

    /// A request of a session-less client: it counts as connected for [`LEASE`] from now, and
    /// with `hold` until the returned connection is dropped (an open listen stream).
    pub(crate) fn seen(self: &Arc<Self>, client: NewMcpClient, hold: bool) -> Option<McpConnection> {
        let client = stamped(client);
        let key = format!("lease:{:?}:{}:{}", client.transport, client.name, client.version);
        let is_new = {
            let mut registry = self.lock();
            let now = Instant::now();
            if !registry.entries.contains_key(&key) && !registry.make_room_for_a_lease(now) {
                return None;
            }
            let entry = registry.entries.entry(key.clone()).or_insert_with(|| Entry {
                client,
                holds: 0,
                leased_until: None,
            });
            let was_live = entry.is_live(now);
            entry.leased_until = Some(now + LEASE);
            entry.holds += usize::from(hold);
            !was_live
        };
        if is_new {
            self.events.publish(DomainEvent::McpClientsChanged);
            self.wake.notify_one();
        }
        hold.then(|| McpConnection { clients: Arc::clone(self), key })
    }

    fn release(&self, key: &str) {
        let gone = {
            let mut registry = self.lock();
            let Some(entry) = registry.entries.get_mut(key) else { return };
            entry.holds = entry.holds.saturating_sub(1);
            let gone = !entry.is_live(Instant::now());
            if gone {
                registry.entries.remove(key);
                // Under the lock, so a refresh of the file (`write_file`) cannot bring it back.
                let _ = std::fs::remove_file(self.file_of(key));
            }
            gone
        };
        if gone {
            self.events.publish(DomainEvent::McpClientsChanged);
        }
    }

    /// Every client connected now: this process's, then other processes', by connection time.
    /// The next sweep announces a change if what it sees differs from this list.
    pub(crate) fn list(&self) -> Vec<McpClient> {
        let clients = self.current();
        let mut registry = self.lock();
        if !registry.handed.contains(&clients) {
            registry.handed.push(clients.clone());
        }
        clients
    }

    fn current(&self) -> Vec<McpClient> {
        let now = Instant::now();
        let mut clients: Vec<McpClient> = {
            let mut registry = self.lock();
            registry.entries.retain(|_, entry| entry.is_live(now));
            registry.entries.values().map(|entry| entry.client.clone()).collect()
        };
        clients.extend(self.other_processes());
        clients.sort_by(|a, b| (&a.connected_at, &a.name).cmp(&(&b.connected_at, &b.name)));
        clients
    }

    /// One sweep: refreshes this process's client files, drops expired leases and announces a
    /// change when the list differs from the last sweep's or from any list a reader was handed.
    /// Answers how long until the next sweep is due, or `None` when only a wake-up can make one
    /// needed.
    pub(crate) fn sweep(&self) -> Option<Duration> {
        let held: Vec<String> = self
            .lock()
            .entries
            .iter()
            .filter(|(_, entry)| entry.client.transport == McpTransport::Stdio && entry.holds > 0)
            .map(|(key, _)| key.clone())
            .collect();
        for key in held {
            self.write_file(&key);
        }
        let clients = self.current();
        let changed = {
            let mut registry = self.lock();
            let handed = std::mem::take(&mut registry.handed);
            let changed = registry.last_seen != clients || handed.iter().any(|list| *list != clients);
            registry.last_seen = clients;
            changed
        };
        if changed {
            self.events.publish(DomainEvent::McpClientsChanged);
        }
        self.next_due()
    }

    /// How long until something listed runs out on its own: [`HEARTBEAT`] while this process
    /// holds stdio clients (their files need refreshing), else the earliest lease without an
    /// open stream, or the earliest other process's file to go stale.
    fn next_due(&self) -> Option<Duration> {
        let now = Instant::now();
        let leases = {
            let registry = self.lock();
            if registry.entries.values().any(|e| e.client.transport == McpTransport::Stdio && e.holds > 0) {
                return Some(HEARTBEAT);
            }
            registry
                .entries
                .values()
                .filter(|entry| entry.holds == 0)
                .filter_map(|entry| entry.leased_until)
                .map(|until| until.saturating_duration_since(now))
                .min()
        };
        let files = self.others_files().map(|(_, age)| STALE.saturating_sub(age)).min();
        leases.into_iter().chain(files).min()
    }

    /// Other processes' client files with their age.
    fn others_files(&self) -> impl Iterator<Item = (PathBuf, Duration)> {
        let own = format!("{}-", std::process::id());
        std::fs::read_dir(&self.dir).into_iter().flatten().flatten().filter_map(move |item| {
            let name = item.file_name().to_string_lossy().into_owned();
            if !name.ends_with(".json") || name.starts_with(&own) {
                return None;
            }
            let modified = item.metadata().and_then(|m| m.modified()).ok()?;
            let age = SystemTime::now().duration_since(modified).unwrap_or_default();
            Some((item.path(), age))
        })
    }

    fn file_of(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    /// Announces a stdio client to other processes (HTTP clients are seen by the desktop itself).
    /// The file is written under the registry's lock: a client released meanwhile would
    /// otherwise have its file written back after `release` removed it, listed for [`STALE`]
    /// after it left.
    fn write_file(&self, key: &str) {
        let registry = self.lock();
        let client = match registry.entries.get(key) {
            Some(entry) if entry.client.transport == McpTransport::Stdio => &entry.client,
            _ => return,
        };
        let Ok(json) = serde_json::to_vec(client) else { return };
        let _ = std::fs::create_dir_all(&self.dir);
        let path = self.file_of(key);
        let staging = self.dir.join(format!(".{key}.tmp"));
        if std::fs::write(&staging, json).is_ok() {
            let _ = std::fs::rename(&staging, path);
        }
    }

    /// The clients other live processes announced; stale files are removed.
    fn other_processes(&self) -> Vec<McpClient> {
        let mut clients = Vec::new();
        for (path, age) in self.others_files() {
            if age >= STALE {
                let _ = std::fs::remove_file(&path);
                continue;
            }
            if let Some(client) = std::fs::read(&path).ok().and_then(|b| serde_json::from_slice(&b).ok()) {
                clients.push(client);
            }
        }
        clients
    }
}

impl crate::App {
    /// The MCP clients connected right now, for Settings → Agents (MCP); changes are announced
    /// as `mcp-clients-changed`.
    pub fn mcp_clients(&self) -> Vec<McpClient> {
        self.inner().mcp_clients.list()
    }

    /// An MCP front end's new connection with a lifetime (stdio, or an HTTP session begun with
    /// `initialize`): the client is listed until the returned value is dropped.
    pub fn mcp_connected(&self, client: NewMcpClient) -> McpConnection {
        self.inner().mcp_clients.connect(client)
    }

    /// A request of a session-less (2026-07-28) client: listed for [`LEASE`] from now; with
    /// `hold` (an open `subscriptions/listen` stream) also until the returned value is dropped.
    pub fn mcp_seen(&self, client: NewMcpClient, hold: bool) -> Option<McpConnection> {
        self.inner().mcp_clients.seen(client, hold)
    }
}

/// The client as kept: its name and version cut to their caps.
fn stamped(client: NewMcpClient) -> McpClient {
    McpClient {
        name: at_most(client.name, MAX_NAME_CHARS),
        version: at_most(client.version, MAX_VERSION_CHARS),
        transport: client.transport,
        connected_at: clock::now(),
    }
}

fn at_most(mut text: String, chars: usize) -> String {
    if let Some((cut, _)) = text.char_indices().nth(chars) {
        text.truncate(cut);
        text.shrink_to_fit();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    type Fixture = (tempfile::TempDir, Arc<McpClients>, tokio::sync::broadcast::Receiver<DomainEvent>);

    fn registry() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let events = EventBus::new();
        let receiver = events.subscribe();
        let clients = Arc::new(McpClients::new(dir.path(), events));
        (dir, clients, receiver)
    }

    fn client(name: &str, transport: McpTransport) -> NewMcpClient {
        NewMcpClient { name: name.into(), version: "1.2.3".into(), transport }
    }

    #[test]
    fn a_held_connection_is_listed_until_it_is_dropped_and_each_change_is_announced() {
        let (_dir, clients, mut events) = registry();
        let connection = clients.connect(client("claude-code", McpTransport::StreamableHttp));
        let listed = clients.list();
        assert_eq!(listed.len(), 1);
        assert_eq!((listed[0].name.as_str(), listed[0].version.as_str()), ("claude-code", "1.2.3"));
        assert_eq!(events.try_recv().unwrap(), DomainEvent::McpClientsChanged);
        drop(connection);
        assert!(clients.list().is_empty());
        assert_eq!(events.try_recv().unwrap(), DomainEvent::McpClientsChanged);
    }

    #[test]
    fn a_session_less_client_stays_listed_after_its_request_and_is_announced_once() {
        let (_dir, clients, mut events) = registry();
        assert!(clients.seen(client("fastmcp", McpTransport::StreamableHttp), false).is_none());
        clients.seen(client("fastmcp", McpTransport::StreamableHttp), false);
        assert_eq!(clients.list().len(), 1);
        assert_eq!(events.try_recv().unwrap(), DomainEvent::McpClientsChanged);
        assert!(events.try_recv().is_err(), "the second request changes nothing");
    }

    #[test]
    fn a_client_s_name_and_version_are_kept_to_their_caps() {
        let (_dir, clients, _events) = registry();
        let long = NewMcpClient {
            name: "é".repeat(200_000),
            version: "9".repeat(10_000),
            transport: McpTransport::StreamableHttp,
        };
        let _held = clients.connect(long.clone());
        clients.seen(long, false);
        for listed in clients.list() {
            assert_eq!(listed.name.chars().count(), MAX_NAME_CHARS);
            assert_eq!(listed.version.chars().count(), MAX_VERSION_CHARS);
        }
    }

    #[test]
    fn past_the_cap_a_new_session_less_client_takes_the_place_of_the_one_heard_from_longest_ago() {
        let (_dir, clients, _events) = registry();
        let held = clients.seen(client("listening", McpTransport::StreamableHttp), true);
        for n in 0..MAX_LEASED * 3 {
            clients.seen(client(&format!("client-{n}"), McpTransport::StreamableHttp), false);
        }
        let listed: Vec<String> = clients.list().into_iter().map(|c| c.name).collect();
        assert_eq!(listed.len(), MAX_LEASED);
        assert!(listed.contains(&"listening".to_string()), "a client with an open stream stays");
        assert!(listed.contains(&format!("client-{}", MAX_LEASED * 3 - 1)), "the newest is listed");
        assert!(!listed.contains(&"client-0".to_string()), "the oldest made room");
        drop(held);
    }

    #[test]
    fn a_stdio_client_of_another_process_is_listed_from_its_fresh_file() {
        let (dir, clients, _events) = registry();
        let folder = dir.path().join(CLIENTS_DIR);
        std::fs::create_dir_all(&folder).unwrap();
        let other = McpClient {
            name: "codex".into(),
            version: "0.9".into(),
            transport: McpTransport::Stdio,
            connected_at: "2026-12-01T10:00:00Z".into(),
        };
        std::fs::write(folder.join("999999-1.json"), serde_json::to_vec(&other).unwrap()).unwrap();
        assert_eq!(clients.list(), vec![other]);
    }

    #[test]
    fn a_stdio_connection_writes_its_file_and_removes_it_when_dropped() {
        let (dir, clients, _events) = registry();
        let connection = clients.connect(client("claude-desktop", McpTransport::Stdio));
        let files = || std::fs::read_dir(dir.path().join(CLIENTS_DIR)).unwrap().count();
        assert_eq!(files(), 1);
        drop(connection);
        assert_eq!(files(), 0);
    }

    #[test]
    fn with_nothing_connected_no_sweep_is_due() {
        let (_dir, clients, _events) = registry();
        assert_eq!(clients.sweep(), None);
    }

    #[test]
    fn a_session_less_client_makes_the_next_sweep_due_when_its_lease_runs_out() {
        let (_dir, clients, _events) = registry();
        clients.seen(client("vscode", McpTransport::StreamableHttp), false);
        let due = clients.sweep().expect("a lease runs");
        assert!(due <= LEASE && due > LEASE - Duration::from_secs(5), "{due:?}");
    }

    #[test]
    fn a_held_stdio_client_keeps_the_heartbeat_that_refreshes_its_file() {
        let (_dir, clients, _events) = registry();
        let _held = clients.connect(client("claude-desktop", McpTransport::Stdio));
        assert_eq!(clients.sweep(), Some(HEARTBEAT));
    }

    #[test]
    fn another_process_s_client_makes_the_next_sweep_due_when_its_file_would_go_stale() {
        let (dir, clients, _events) = registry();
        let folder = dir.path().join(CLIENTS_DIR);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("999999-1.json"), b"{}").unwrap();
        let due = clients.sweep().expect("the file goes stale");
        assert!(due <= STALE && due > STALE - Duration::from_secs(5), "{due:?}");
    }

    #[tokio::test]
    async fn another_process_s_new_client_file_wakes_the_sweep_and_this_process_s_own_does_not() {
        let (dir, clients, _events) = registry();
        let _watcher = clients.watch_others().expect("the folder can be watched");
        let folder = dir.path().join(CLIENTS_DIR);
        let wait = Duration::from_millis(500);
        std::fs::write(folder.join(format!("{}-7.json", std::process::id())), b"{}").unwrap();
        assert!(tokio::time::timeout(wait, clients.woken()).await.is_err(), "its own file wakes nothing");
        clients.sweep();
        assert!(
            tokio::time::timeout(wait, clients.woken()).await.is_err(),
            "the sweep's own reading wakes nothing"
        );
        std::fs::write(folder.join("999999-1.json"), b"{}").unwrap();
        tokio::time::timeout(Duration::from_secs(10), clients.woken())
            .await
            .expect("another process's file wakes the sweep");
    }

    #[test]
    fn a_client_of_another_process_that_leaves_between_two_sweeps_is_announced_to_its_reader() {
        let (dir, clients, mut events) = registry();
        clients.sweep();
        let folder = dir.path().join(CLIENTS_DIR);
        std::fs::create_dir_all(&folder).unwrap();
        let other = McpClient {
            name: "e2e-stdio-agent".into(),
            version: "4.5.6".into(),
            transport: McpTransport::Stdio,
            connected_at: "2026-12-01T10:00:00Z".into(),
        };
        let file = folder.join("999999-1.json");
        std::fs::write(&file, serde_json::to_vec(&other).unwrap()).unwrap();
        assert_eq!(clients.list(), vec![other], "a reader is handed the other process's client");
        std::fs::remove_file(&file).unwrap();
        clients.sweep();
        assert_eq!(events.try_recv().unwrap(), DomainEvent::McpClientsChanged);
        clients.sweep();
        assert!(events.try_recv().is_err(), "a sweep with nothing new announces nothing");
    }
}
