//! Changes the domain announces to whoever shows them.
//!
//! The local API, the delivery worker, the skills library and its watcher all run without a
//! window; the desktop shell subscribes to this bus and forwards each event to the UI under
//! [`DomainEvent::name`]. Events are small (an id or a name): the UI re-reads what it needs, so
//! a missed event costs a refresh, never a wrong screen.

use serde::Serialize;
use tokio::sync::broadcast;
use ts_rs::TS;

/// How many events a slow subscriber may fall behind before it misses some (and is told so by
/// `RecvError::Lagged`, after which it should refresh everything it shows).
const CAPACITY: usize = 1024;

/// One change worth showing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export)]
pub enum DomainEvent {
    /// A case was opened (by the agent or by the guardrail): the inbox shows it and notifies.
    CaseOpened { id: String },
    /// A case's status, timeline or delivery changed.
    CaseChanged { id: String },
    /// A promise the agent made on a case fell due without a person's reply: it moves to the
    /// top of *Waiting on you*, and the desktop notifies.
    PromiseOverdue { id: String, number: i64, quote: String },
    /// A response-time target of a case (`target`: `first_reply` or `resolution`) fell due
    /// unmet: the timeline shows it, and the desktop notifies.
    SlaOverdue { id: String, number: i64, target: String },
    /// A skill folder changed (or appeared) and was re-validated.
    SkillChanged { name: String },
    /// A skill folder is gone from the skills directory.
    SkillRemoved { name: String },
    /// The start-up scan of a large skills directory made progress; `done == total` once every
    /// skill is listed (a list reads itself again) and once more when the scan has ended.
    ScanProgress { done: u32, total: u32 },
    /// The skills directory became unreadable (`available: false`, with why) or came back.
    SkillsDirStatus { available: bool, message: Option<String> },
    /// A workspace setting changed (`section`: `skills_dir`, `api`, `endpoint`, `policy`,
    /// `appearance`); the status line and Settings re-read what they show.
    SettingsChanged { section: String },
    /// An MCP client connected or went away; Settings re-reads the clients connected now.
    McpClientsChanged,
}

impl DomainEvent {
    /// The event name the desktop shell emits to the window (`case-opened`, `skill-changed`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            DomainEvent::CaseOpened { .. } => "case-opened",
            DomainEvent::CaseChanged { .. } => "case-changed",
            DomainEvent::PromiseOverdue { .. } => "promise-overdue",
            DomainEvent::SlaOverdue { .. } => "sla-overdue",
            DomainEvent::SkillChanged { .. } => "skill-changed",
            DomainEvent::SkillRemoved { .. } => "skill-removed",
            DomainEvent::ScanProgress { .. } => "scan-progress",
            DomainEvent::SkillsDirStatus { .. } => "skills-dir-status",
            DomainEvent::SettingsChanged { .. } => "settings-changed",
            DomainEvent::McpClientsChanged => "mcp-clients-changed",
        }
    }
}

/// A broadcast channel of [`DomainEvent`]s. Cheap to clone; publishing never blocks and never
/// fails (with no subscriber the event is simply dropped).
#[derive(Debug, Clone)]
pub struct EventBus(broadcast::Sender<DomainEvent>);

impl Default for EventBus {
    fn default() -> Self {
        EventBus(broadcast::channel(CAPACITY).0)
    }
}

impl EventBus {
    /// A bus with no subscribers yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Announces `event` to every current subscriber.
    pub fn publish(&self, event: DomainEvent) {
        let _ = self.0.send(event);
    }

    /// Receives every event published from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<DomainEvent> {
        self.0.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subscriber_receives_what_is_published_after_it_subscribed() {
        let bus = EventBus::new();
        bus.publish(DomainEvent::CaseOpened { id: "before".into() });
        let mut events = bus.subscribe();
        bus.publish(DomainEvent::SkillChanged { name: "frete".into() });
        assert_eq!(events.try_recv().unwrap(), DomainEvent::SkillChanged { name: "frete".into() });
        assert!(events.try_recv().is_err());
    }

    #[test]
    fn events_serialise_with_their_kind_and_fields() {
        let json = serde_json::to_value(DomainEvent::ScanProgress { done: 3, total: 10 }).unwrap();
        assert_eq!(json, serde_json::json!({ "kind": "scan_progress", "done": 3, "total": 10 }));
        assert_eq!(DomainEvent::SkillRemoved { name: "x".into() }.name(), "skill-removed");
    }
}
