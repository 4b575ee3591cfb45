//! Live updates across instances: a thread holds one connection that `LISTEN`s on the channel
//! the schema's triggers announce every committed change on, and hands each change to a callback
//! (the application puts it on its event bus, so every desktop's window refreshes within a
//! second). A lost connection is made again; what changed meanwhile is announced as a resync.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use postgres::fallible_iterator::FallibleIterator;

use crate::connect::{config, tls, TeamUrl};

/// The channel the schema's triggers notify on.
pub const CHANNEL: &str = "skillcase_cases";

/// How often the listener looks at its stop flag while the channel is quiet.
const POLL: Duration = Duration::from_millis(200);
/// How long it waits before connecting again after losing the server.
const RECONNECT: Duration = Duration::from_secs(1);

/// One change another instance (or this one) committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeamChange {
    /// A case was opened.
    Opened { case_id: String },
    /// A case, its timeline or its deliveries changed.
    Changed { case_id: String },
    /// The listener was cut off for a while: anything may have changed.
    Resync,
}

impl TeamChange {
    /// Reads a notification's payload (`opened:<id>:<writer>` / `changed:<id>:<writer>`), with
    /// the writer's application name.
    pub fn parse(payload: &str) -> Option<(TeamChange, &str)> {
        let mut parts = payload.splitn(3, ':');
        let (kind, case_id, writer) = (parts.next()?, parts.next()?.to_string(), parts.next().unwrap_or(""));
        match kind {
            "opened" => Some((TeamChange::Opened { case_id }, writer)),
            "changed" => Some((TeamChange::Changed { case_id }, writer)),
            _ => None,
        }
    }
}

/// The running listener; dropping it (or [`Listener::stop`]) ends the thread.
pub struct Listener {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Listener {
    /// Starts listening on `url`, calling `on_change` on the listener's thread for each change
    /// written by anyone but `own` (the application name of this instance's pool, whose changes
    /// it already announced itself).
    pub fn start(
        url: TeamUrl,
        own: Option<String>,
        on_change: impl Fn(TeamChange) + Send + 'static,
    ) -> Listener {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("skillcase-team-listen".into())
            .spawn(move || {
                let relay = |payload: &str| match TeamChange::parse(payload) {
                    Some((_, writer)) if own.as_deref() == Some(writer) => {}
                    Some((change, _)) => on_change(change),
                    None => {}
                };
                listen(&url, &flag, &relay, &on_change)
            })
            .expect("the listener thread starts");
        Listener { stop, thread: Some(thread) }
    }

    /// Stops the thread and waits for it (at most one poll interval).
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.halt();
    }
}

/// Connects, listens and relays until `stop` is set, connecting again whenever the server goes.
fn listen(url: &TeamUrl, stop: &AtomicBool, relay: &dyn Fn(&str), on_change: &dyn Fn(TeamChange)) {
    let mut first = true;
    while !stop.load(Ordering::SeqCst) {
        let Ok(Ok(mut client)) = config(url).map(|c| c.connect(tls())) else {
            std::thread::sleep(RECONNECT);
            continue;
        };
        if client.batch_execute(&format!("LISTEN {CHANNEL}")).is_err() {
            std::thread::sleep(RECONNECT);
            continue;
        }
        if !first {
            on_change(TeamChange::Resync);
        }
        first = false;
        pass_on(&mut client, stop, relay);
    }
}

/// Hands each notification's payload to `relay` until the connection fails or `stop` is set.
fn pass_on(client: &mut postgres::Client, stop: &AtomicBool, relay: &dyn Fn(&str)) {
    while !stop.load(Ordering::SeqCst) && !client.is_closed() {
        let mut notifications = client.notifications();
        let mut batch = notifications.timeout_iter(POLL);
        loop {
            match batch.next() {
                Ok(Some(note)) => relay(note.payload()),
                Ok(None) => break,
                Err(_) => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_names_the_change_its_case_and_its_writer() {
        let opened = TeamChange::Opened { case_id: "c-1".into() };
        assert_eq!(TeamChange::parse("opened:c-1:skillcase 7f"), Some((opened, "skillcase 7f")));
        let changed = TeamChange::Changed { case_id: "c-2".into() };
        assert_eq!(TeamChange::parse("changed:c-2:psql"), Some((changed, "psql")));
        assert_eq!(TeamChange::parse("other"), None);
    }
}
