//! Tauri commands, one file per screen area. Each is a one-liner over the application layer.

pub mod app;
pub mod cases;
pub mod catalog;
pub mod dialog;
pub mod editing;
pub mod settings;
pub mod skills;
