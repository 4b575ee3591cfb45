//! Tauri commands, one file per screen area. Each is a one-liner over the core.

pub mod app;
pub mod cases;
pub mod catalog;
pub mod dialog;
mod folder_zip;
mod library;
pub mod settings;
pub mod skills;
