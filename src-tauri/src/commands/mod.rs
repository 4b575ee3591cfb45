//! Tauri commands, one file per screen area. Each is a one-liner over the core.

pub mod app;
pub mod catalog;
mod library;
pub mod skills;
pub mod dialog;
pub mod settings;
