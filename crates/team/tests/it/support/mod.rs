//! What the team crate's tests share: a fresh database on the process's throw-away cluster, and
//! psql to look at it from outside the code under test.

#![allow(dead_code)]

use skillcase_cases::model::{CaseSource, ContextMessage, Lead, NewCase};
use skillcase_cases::reason::HandoverReason;
use skillcase_team::{PgCases, TeamUrl};
use skillcase_testkit::postgres::Cluster;

/// The URL of a new empty database.
pub fn fresh_url() -> TeamUrl {
    TeamUrl::parse(&Cluster::shared().fresh_database()).unwrap()
}

/// The repositories on a new empty database, migrated.
pub fn team() -> PgCases {
    PgCases::open(&fresh_url()).unwrap()
}

/// A second instance on the same database as `team`, with its own pool.
pub fn another_instance(team: &PgCases) -> PgCases {
    PgCases::open(team.url()).unwrap()
}

/// Runs SQL on the database behind `url` with psql (outside the code under test).
pub fn psql(url: &TeamUrl, sql: &str) -> String {
    Cluster::shared().psql(database(url), sql)
}

/// [`psql`] for a command the database must refuse: the server's message.
pub fn psql_refused(url: &TeamUrl, sql: &str) -> String {
    Cluster::shared().try_psql(database(url), sql).expect_err(sql)
}

fn database(url: &TeamUrl) -> &str {
    url.secret().rsplit('/').next().unwrap()
}

/// The case the agent opens in most tests: a refund for a double charge, for `conversation_id`.
pub fn refund_case(conversation_id: &str) -> NewCase {
    NewCase {
        conversation_id: conversation_id.to_string(),
        lead: Lead {
            id: Some("lead-77".into()),
            name: Some("Maria Souza".into()),
            channel: Some("whatsapp".into()),
            contact: Some("+55 11 91234-5678".into()),
        },
        agent_id: Some("support-bot".into()),
        title: "Refund for a double charge".into(),
        summary: "The lead was charged twice for order 5512 and wants one charge refunded.".into(),
        blocker: Some("Refunds need a person's approval.".into()),
        context: vec![ContextMessage {
            role: "lead".into(),
            text: "I was charged twice!".into(),
            at: Some("2026-11-30T10:00:00.000Z".into()),
        }],
        source: CaseSource::Agent,
        reason: HandoverReason::PolicyRestriction,
    }
}
