//! Helpers for the library tests: a workspace of real temporary folders (skills directory,
//! catalog, data directory) and skill folders written from visible text.
#![allow(dead_code)]

use std::fs;
use std::path::PathBuf;
use std::sync::Arc;

use skillcase_common::events::{DomainEvent, EventBus};
use skillcase_library::{Library, LibraryOptions};
use tempfile::TempDir;

/// A temporary workspace: `skills/`, `catalog/` and `data/` side by side.
pub struct Workspace {
    pub root: TempDir,
    pub events: EventBus,
}

impl Workspace {
    /// Empty skills and catalog folders.
    pub fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        fs::create_dir_all(root.path().join("skills")).unwrap();
        fs::create_dir_all(root.path().join("catalog")).unwrap();
        Workspace { root, events: EventBus::new() }
    }

    pub fn skills(&self) -> PathBuf {
        self.root.path().join("skills")
    }

    pub fn catalog(&self) -> PathBuf {
        self.root.path().join("catalog")
    }

    pub fn data(&self) -> PathBuf {
        self.root.path().join("data")
    }

    /// The options of a library over this workspace (with the catalog).
    pub fn options(&self) -> LibraryOptions {
        let mut options = LibraryOptions::in_data_dir(&self.data(), self.skills(), Some(self.catalog()));
        options.events = self.events.clone();
        options
    }

    /// Opens and scans the library.
    pub fn open(&self) -> Arc<Library> {
        let library = Library::open(self.options()).unwrap();
        library.scan().unwrap();
        Arc::new(library)
    }
}

/// Every event received so far.
pub fn drain(events: &mut tokio::sync::broadcast::Receiver<DomainEvent>) -> Vec<DomainEvent> {
    let mut out = Vec::new();
    while let Ok(event) = events.try_recv() {
        out.push(event);
    }
    out
}

/// Names of the skills on the first page of the list.
pub fn names(library: &Library) -> Vec<String> {
    library.list(&Default::default()).items.into_iter().map(|s| s.name).collect()
}
