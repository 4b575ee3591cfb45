//! `skillcase team verify`: every case's timeline walked along its hash chain. Each event's
//! digest covers the event before it on its case, so an event changed, removed or slipped in
//! afterwards — by anyone, the database's owner included, with the triggers turned off — shows
//! as a break. The digests are recomputed here, not by the database's own function, which its
//! owner could replace.

use std::collections::HashMap;

use postgres::GenericClient;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::error::TeamError;

/// What the walk found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChainReport {
    pub cases: u64,
    pub events: u64,
    pub breaks: Vec<ChainBreak>,
}

/// One place where a case's history is not what its chain says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export)]
pub struct ChainBreak {
    pub case_id: String,
    #[ts(type = "number")]
    pub number: i64,
    /// The event at fault, when one is.
    #[ts(type = "number | null")]
    pub seq: Option<i64>,
    pub problem: String,
}

/// One stored event, as its digest covers it.
struct Event {
    seq: i64,
    kind: String,
    actor: String,
    actor_name: Option<String>,
    at: String,
    payload: String,
    prev: Option<String>,
    digest: Option<String>,
}

/// Walks every case's chain.
pub fn verify(client: &mut impl GenericClient) -> Result<ChainReport, TeamError> {
    let heads: Vec<(String, i64, Option<String>, Option<i64>)> = client
        .query(
            "SELECT c.id, c.number, h.head, h.events FROM cases c LEFT JOIN case_chain h ON h.case_id = c.id \
             ORDER BY c.number",
            &[],
        )?
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
        .collect();
    let mut events = events_by_case(client, None)?;
    let mut report = ChainReport { cases: heads.len() as u64, events: 0, breaks: Vec::new() };
    for (case_id, number, head, count) in heads {
        let timeline = events.remove(&case_id).unwrap_or_default();
        report.events += timeline.len() as u64;
        let problems = walk(&case_id, &timeline, head.as_deref().unwrap_or(""), count.unwrap_or(0));
        report.breaks.extend(problems.into_iter().map(|(seq, problem)| ChainBreak {
            case_id: case_id.clone(),
            number,
            seq,
            problem,
        }));
    }
    Ok(report)
}

/// Walks one case's chain: what the window checks when a person opens the case.
pub fn verify_case(client: &mut impl GenericClient, case_id: &str) -> Result<Vec<ChainBreak>, TeamError> {
    let Some(row) = client.query_opt(
        "SELECT c.number, h.head, h.events FROM cases c LEFT JOIN case_chain h ON h.case_id = c.id WHERE c.id = $1",
        &[&case_id],
    )?
    else {
        return Ok(Vec::new());
    };
    let (number, head, count): (i64, Option<String>, Option<i64>) = (row.get(0), row.get(1), row.get(2));
    let timeline = events_by_case(client, Some(case_id))?.remove(case_id).unwrap_or_default();
    let problems = walk(case_id, &timeline, head.as_deref().unwrap_or(""), count.unwrap_or(0));
    Ok(problems
        .into_iter()
        .map(|(seq, problem)| ChainBreak { case_id: case_id.to_string(), number, seq, problem })
        .collect())
}

/// Every case's events (or only `only`'s), in order.
fn events_by_case(
    client: &mut impl GenericClient,
    only: Option<&str>,
) -> Result<HashMap<String, Vec<Event>>, TeamError> {
    let mut by_case: HashMap<String, Vec<Event>> = HashMap::new();
    let rows = client.query(
        "SELECT case_id, seq, kind, actor, actor_name, at, payload, prev_digest, digest FROM case_events \
         WHERE $1::text IS NULL OR case_id = $1 ORDER BY case_id, seq",
        &[&only],
    )?;
    for row in rows {
        let event = Event {
            seq: row.get(1),
            kind: row.get(2),
            actor: row.get(3),
            actor_name: row.get(4),
            at: row.get(5),
            payload: row.get(6),
            prev: row.get(7),
            digest: row.get(8),
        };
        by_case.entry(row.get(0)).or_default().push(event);
    }
    Ok(by_case)
}

/// The breaks in one case's chain: each event's digest recomputed over the one before it, the
/// links followed from the first event to the head the case's chain row keeps.
fn walk(case_id: &str, events: &[Event], head: &str, count: i64) -> Vec<(Option<i64>, String)> {
    let mut problems = Vec::new();
    let mut next: HashMap<&str, &Event> = HashMap::new();
    for event in events {
        let (Some(prev), Some(digest)) = (&event.prev, &event.digest) else {
            problems
                .push((Some(event.seq), "the event has no digest: it was written around the chain".into()));
            continue;
        };
        if digest_of(prev, case_id, event) != *digest {
            problems.push((Some(event.seq), "the event was changed after it was written".into()));
        }
        if next.insert(prev.as_str(), event).is_some() {
            problems.push((Some(event.seq), "two events follow the same one: one was slipped in".into()));
        }
    }
    let (mut at, mut walked) = ("", 0_usize);
    while let Some(event) = next.get(at) {
        walked += 1;
        at = event.digest.as_deref().unwrap_or_default();
        if walked > events.len() {
            break;
        }
    }
    if at != head || walked != events.len() || i64::try_from(walked).ok() != Some(count) {
        problems.push((
            None,
            format!(
                "the chain holds {walked} of the case's {} events and ends {}: events were removed or added",
                events.len(),
                if at == head { "at its recorded head" } else { "short of its recorded head" }
            ),
        ));
    }
    problems
}

/// The digest of `event` after `prev`, as the database's trigger computes it: SHA-256 over each
/// field written as its length in characters, `:` and the field (`-` for NULL), in hex.
fn digest_of(prev: &str, case_id: &str, event: &Event) -> String {
    let seq = event.seq.to_string();
    let fields = [
        Some(prev),
        Some(case_id),
        Some(seq.as_str()),
        Some(event.kind.as_str()),
        Some(event.actor.as_str()),
        event.actor_name.as_deref(),
        Some(event.at.as_str()),
        Some(event.payload.as_str()),
    ];
    let mut hasher = Sha256::new();
    for field in fields {
        match field {
            Some(text) => hasher.update(format!("{}:{text}", text.chars().count())),
            None => hasher.update("-"),
        }
    }
    format!("{:x}", hasher.finalize())
}
