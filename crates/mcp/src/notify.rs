//! Change notifications: every skill the watched directory, an edit or an import changes is
//! announced on the application's bus (`SkillChanged`, `SkillRemoved`), and each connection
//! turns it into `notifications/resources/list_changed` (the listing and the entries changed)
//! and, for each subscribed URI of that skill, `notifications/resources/updated`.
//!
//! Two protocol generations, one rule: a 2026-07-28 client opens a `subscriptions/listen`
//! stream with a filter ([`listen`]); an earlier client subscribes URIs with
//! `resources/subscribe` and gets the notifications on its connection ([`forward`]).

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::service::{Peer, RoleServer, SubscriptionContext, SubscriptionSink};
use skillcase_application::App;
use skillcase_common::events::DomainEvent;
use tokio::sync::broadcast::error::RecvError;

use crate::uri::SkillUri;

/// The URIs a pre-2026 connection subscribed with `resources/subscribe`.
pub type Subscribed = Arc<Mutex<BTreeSet<String>>>;

/// Which skill an event changed: `Some(Some(name))` for one skill, `Some(None)` when anything
/// may have changed (the forwarder fell behind), `None` when the event is not about skills.
type Change = Option<Option<String>>;

async fn next_change(events: &mut tokio::sync::broadcast::Receiver<DomainEvent>) -> Result<Change, ()> {
    match events.recv().await {
        Ok(DomainEvent::SkillChanged { name } | DomainEvent::SkillRemoved { name }) => Ok(Some(Some(name))),
        Ok(_) => Ok(None),
        Err(RecvError::Lagged(_)) => Ok(Some(None)),
        Err(RecvError::Closed) => Err(()),
    }
}

/// True when `uri` is a file (or folder) of the changed skill.
fn concerns(uri: &str, changed: &Option<String>) -> bool {
    match changed {
        None => true,
        Some(name) => SkillUri::parse(uri).is_some_and(|at| at.name == *name),
    }
}

/// Serves one `subscriptions/listen` stream until the client cancels it or the bus closes.
pub async fn listen(app: &App, context: &SubscriptionContext) {
    let mut events = app.events().subscribe();
    loop {
        let change = tokio::select! {
            _ = context.cancelled() => return,
            change = next_change(&mut events) => change,
        };
        match change {
            Ok(Some(changed)) => {
                if send_to_stream(context.sink(), &changed).await.is_err() {
                    return;
                }
            }
            Ok(None) => {}
            Err(()) => return,
        }
    }
}

async fn send_to_stream(sink: &SubscriptionSink, changed: &Option<String>) -> Result<(), ()> {
    let accepted = sink.accepted().clone();
    if accepted.resources_list_changed == Some(true) {
        sink.notify_resource_list_changed().await.map_err(|_| ())?;
    }
    for uri in accepted.resource_subscriptions.iter().flatten().filter(|uri| concerns(uri, changed)) {
        sink.notify_resource_updated(uri.clone()).await.map_err(|_| ())?;
    }
    Ok(())
}

/// Forwards changes to a pre-2026 connection until it closes; the task is aborted when the
/// connection's handler is dropped.
pub fn forward(app: &App, peer: Peer<RoleServer>, subscribed: Subscribed) -> tokio::task::JoinHandle<()> {
    let mut events = app.events().subscribe();
    tokio::spawn(async move {
        while let Ok(change) = next_change(&mut events).await {
            let Some(changed) = change else { continue };
            if peer.notify_resource_list_changed().await.is_err() {
                return;
            }
            let uris: Vec<String> = subscribed
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .iter()
                .filter(|uri| concerns(uri, &changed))
                .cloned()
                .collect();
            for uri in uris {
                if peer.notify_resource_updated(ResourceUpdatedNotificationParam::new(uri)).await.is_err() {
                    return;
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_concerns_the_uris_of_that_skill_only() {
        let frete = Some("frete".to_string());
        assert!(concerns("skill://frete/SKILL.md", &frete));
        assert!(concerns("skill://frete/references/prazos.md", &frete));
        assert!(!concerns("skill://devolucao/SKILL.md", &frete));
        assert!(concerns("skill://devolucao/SKILL.md", &None), "after a lag every URI may have changed");
    }
}
