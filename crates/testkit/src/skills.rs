//! Skill folders written from visible text, for tests that need real files on disk.

use std::fs;
use std::path::{Path, PathBuf};

/// A minimal valid SKILL.md for `name`.
pub fn skill_md(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n\nAnswer politely.\n")
}

/// Writes the files of a skill folder `<root>/<name>/`.
pub fn write_skill(root: &Path, name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = root.join(name);
    for (path, text) in files {
        let target = dir.join(path);
        fs::create_dir_all(target.parent().unwrap()).unwrap();
        fs::write(target, text).unwrap();
    }
    dir
}

/// Writes a valid one-file skill.
pub fn write_simple(root: &Path, name: &str, description: &str) -> PathBuf {
    write_skill(root, name, &[("SKILL.md", &skill_md(name, description))])
}
