//! The shared corpus of real public skills (`../shared/corpus`), required test data for the
//! corpus tests. Included with `#[path]` so those tests do not compile the other helpers.

use std::path::{Path, PathBuf};

/// The corpus root; fails loudly when the shared data is missing.
pub fn root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    assert!(root.is_dir(), "the shared corpus is missing at {}; it is required test data", root.display());
    root
}

/// Every `<collection>/<skill>` folder that holds a SKILL.md, sorted.
pub fn skill_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root())
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .flat_map(|collection| std::fs::read_dir(collection.path()).unwrap().flatten())
        .map(|e| e.path())
        .filter(|p| p.join("SKILL.md").is_file())
        .collect();
    dirs.sort();
    dirs
}
