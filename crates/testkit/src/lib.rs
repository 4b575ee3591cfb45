//! Helpers the crates' tests share: zips built from visible entries (attacks included), a fake
//! agent endpoint on 127.0.0.1, a static file server on 127.0.0.1 that counts requests, a fake MCP
//! catalog on 127.0.0.1 that answers as scripted (endless cursors and bodies among it), a raw HTTP
//! client, skill folders written from text, the shared corpus of real skills, a fresh database
//! file, a throw-away PostgreSQL cluster, hostile files (FIFOs, sparse giants, a path swapped
//! between a file and a link in a loop), and one test run in a process of its own.
//! Nothing here knows the domain's types, so every crate can use it without a dependency cycle.

pub mod corpus;
pub mod fake_endpoint;
pub mod file_server;
pub mod hostile;
pub mod http;
pub mod loopback;
pub mod mcp_catalog;
pub mod own_process;
#[cfg(unix)]
pub mod postgres;
pub mod skills;
pub mod zips;

use std::path::PathBuf;

use rusqlite::Connection;
use tempfile::TempDir;

/// A database file in its own temporary directory (kept alive by the returned `TempDir`).
pub fn new_db() -> (TempDir, PathBuf, Connection) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(skillcase_store::db::DATABASE_FILE);
    let conn = skillcase_store::db::open(&path).unwrap();
    (dir, path, conn)
}
