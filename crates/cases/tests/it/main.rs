//! Every case behaviour, written once and run on both databases: a real SQLite file and a real
//! PostgreSQL (the test kit's throw-away cluster). A behaviour only one database has (SQLite's
//! full-text syntax, its saved replies) runs on that one alone.

#[macro_use]
mod support;

mod agents;
mod assign;
mod bulk;
mod delivery;
mod guard_decision;
mod inbox;
mod lease;
mod marks;
mod notes;
mod outbox;
mod promises;
mod quiet;
mod report;
mod saved_replies;
mod search;
mod sla;
mod store;
mod text;
mod transitions;
mod vetoes;
