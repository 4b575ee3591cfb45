//! What the team crate's tests share: a fresh database on the process's throw-away cluster.

#![allow(dead_code)]

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
