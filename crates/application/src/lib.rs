//! The application layer: the workspace settings, where state lives, the API token, and (as it
//! grows) one function per user action that every front end — the window, the HTTP API, the CLI —
//! calls.

pub mod info;
pub mod paths;
pub mod settings;
pub mod token;
