//! Skillcase domain: everything the desktop app and the `skillcase` CLI share.
//!
//! This crate never depends on tauri, so it builds and tests on a machine without a window
//! system. The desktop shell (`src-tauri/src`) is a thin layer of commands over these modules.

pub mod api;
pub mod archive;
pub mod cases;
pub mod db;
pub mod durable;
pub mod error;
pub mod events;
pub mod guard;
pub mod info;
pub mod library;
pub mod parallel;
pub mod paths;
pub mod service;
pub mod settings;
pub mod skill;
pub mod watch;

pub use error::ErrorBody;
