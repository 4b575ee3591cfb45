//! The application layer: one function per user action, each doing every step of it (the
//! repository call, the events, waking the workers), for every front end — the window, the local
//! HTTP API, the CLI and MCP. [`App`] is a running Skillcase over one data directory; its methods
//! are grouped by half: [`cases`] (the inbox and the agent's case calls, the guardrail),
//! [`skills`] (library, disclosure levels, import, edits, catalog), [`export`] (the `.skill`
//! export and the security scan of a library skill), [`install`] (install to agents: copies into
//! agents' skills folders, sync and verify), [`catalogs`] (remote catalogs: subscribe, pull,
//! fork on install, the inventory), [`replies`] (saved replies), [`teaching`] (marks on the guardrail's verdicts and retraining) and [`workspace`] (settings changes). [`settings`], [`paths`], [`token`] and [`info`] are what those are made of;
//! [`mcp_clients`] knows the MCP clients connected right now.

pub mod alerts;
mod app;
pub mod assign;
mod case_changes;
pub mod cases;
pub mod catalogs;
pub mod clients;
pub mod export;
pub mod info;
pub mod install;
pub mod mcp_clients;
pub mod memory;
mod overdue;
pub mod paths;
mod priority;
pub mod quiet;
pub mod replies;
mod running;
pub mod settings;
pub mod skills;
pub mod teaching;
pub mod team;
pub mod token;
mod trigger_tests;
pub mod workspace;

pub use app::{person_name, App, AppOptions};

/// The domain crates, re-exported so a front end names every type through the application layer.
pub mod domain {
    pub use skillcase_cases as cases;
    pub use skillcase_cases_sqlite as cases_sqlite;
    pub use skillcase_common as common;
    pub use skillcase_guard as guard;
    pub use skillcase_library as library;
    pub use skillcase_skill as skill;
}
