//! The lock files of the `skills` CLI (npm) and `gh skill`, kept beside `skillcase.lock` for the
//! standard's shared folder, so each tool sees what the other installed: a project's
//! `skills-lock.json` (version 1, next to `.agents/skills`) and the user's
//! `~/.agents/.skill-lock.json` (version 3; `$XDG_STATE_HOME/skills/.skill-lock.json` when that
//! is set). Their hash is the CLI's own ([`hash`]).
//!
//! Rules: an entry another tool wrote is never dropped or rewritten — only the entry of the
//! skill being installed is replaced, every other entry and every top-level key (`dismissed`,
//! `lastSelectedAgents`, …) is written back as it was read, in its order; a file this build does
//! not understand (not JSON, an older or newer `version`) is refused before anything is written,
//! never replaced by an empty one; the file is replaced whole through a rename.

pub mod hash;
mod lock;
mod others;

pub use lock::{local_source, EcoEntry, EcoLock, EcoSource, LockKind, PROJECT_LOCK, USER_LOCK};
pub use others::{others, OtherInstall, OtherState};
