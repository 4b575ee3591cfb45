//! Which folders of a skills directory are skills — one rule set for the library's scan, the
//! watcher and the CLI, so no front end serves a folder another one skips.
//!
//! A skill folder is a direct child of the skills directory that is a real directory (a symbolic
//! link to a folder is never followed: it could point anywhere on the machine), whose name is not
//! hidden (staging folders start with a dot) nor a tool's (`node_modules`, `__pycache__`,
//! `__MACOSX`), and that holds an entry named `SKILL.md` (or the tolerated `skill.md`) that is not
//! a folder. A `SKILL.md` that is a link or a FIFO still makes the folder a skill, so the readers'
//! refusal (`symlink`, `not_regular_file`) shows on it instead of the skill silently vanishing;
//! deciding this needs no more than a `stat` that follows nothing, never an open.

use std::fs;
use std::path::{Path, PathBuf};

use crate::skill_dir::{Kind, SkillDir};

/// Most skill folders one skills directory may hold; folders past it are not listed.
pub const MAX_SKILLS: usize = 50_000;

/// Folder names tools create that are never skills.
const TOOL_FOLDERS: &[&str] = &["node_modules", "__pycache__", "__MACOSX"];

/// One skill folder: its name (the folder name, which is the skill's key) and path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillFolder {
    pub name: String,
    pub dir: PathBuf,
}

/// True for a child name of a skills directory that is never a skill: hidden (`.git`, staging
/// folders) or a tool's folder.
pub fn is_skipped_name(name: &str) -> bool {
    name.starts_with('.') || TOOL_FOLDERS.contains(&name)
}

/// The names a skill's main file may have.
const SKILL_MD: [&str; 2] = ["SKILL.md", "skill.md"];

/// True when `dir` holds an entry named `SKILL.md` (or the tolerated `skill.md`) that is not a
/// folder (see the module's rules).
pub fn has_skill_md(dir: &Path) -> bool {
    SKILL_MD.iter().any(|name| fs::symlink_metadata(dir.join(name)).is_ok_and(|m| !m.is_dir()))
}

/// [`has_skill_md`] for a folder already opened.
pub fn holds_skill_md(dir: &SkillDir) -> bool {
    SKILL_MD.iter().any(|name| dir.kind_of(name).is_some_and(|kind| kind != Kind::Dir))
}

/// The skill folders directly under `root`, sorted by name, at most [`MAX_SKILLS`].
pub fn skill_folders(root: &Path) -> std::io::Result<Vec<SkillFolder>> {
    let mut found = Vec::new();
    for entry in fs::read_dir(root)? {
        let entry = entry?;
        let Ok(name) = entry.file_name().into_string() else { continue };
        if is_skipped_name(&name) {
            continue;
        }
        let Ok(kind) = entry.file_type() else { continue };
        let dir = entry.path();
        if kind.is_dir() && has_skill_md(&dir) {
            found.push(SkillFolder { name, dir });
            if found.len() >= MAX_SKILLS {
                break;
            }
        }
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(root: &Path) -> Vec<String> {
        skill_folders(root).unwrap().into_iter().map(|f| f.name).collect()
    }

    fn skill(root: &Path, name: &str) {
        fs::create_dir_all(root.join(name)).unwrap();
        fs::write(root.join(name).join("SKILL.md"), "---\nname: x\n---\n").unwrap();
    }

    #[test]
    fn folders_holding_skill_md_are_listed_in_name_order() {
        let root = tempfile::tempdir().unwrap();
        skill(root.path(), "zeta");
        skill(root.path(), "alpha");
        fs::create_dir(root.path().join("empty")).unwrap();
        assert_eq!(names(root.path()), ["alpha", "zeta"]);
    }

    #[test]
    fn hidden_and_tool_folders_are_skipped() {
        let root = tempfile::tempdir().unwrap();
        for name in [".staging-x", ".git", "node_modules", "__MACOSX", "real"] {
            skill(root.path(), name);
        }
        assert_eq!(names(root.path()), ["real"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_folder_is_never_followed() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        skill(outside.path(), "elsewhere");
        std::os::unix::fs::symlink(outside.path().join("elsewhere"), root.path().join("linked")).unwrap();
        assert_eq!(names(root.path()), Vec::<String>::new());
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_whose_skill_md_is_a_link_or_a_fifo_is_still_listed_so_its_refusal_shows() {
        let root = tempfile::tempdir().unwrap();
        fs::create_dir_all(root.path().join("linked")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", root.path().join("linked/SKILL.md")).unwrap();
        fs::create_dir_all(root.path().join("piped")).unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            root.path().join("piped/SKILL.md"),
            rustix::fs::FileType::Fifo,
            0o644.into(),
            0,
        )
        .unwrap();
        fs::create_dir_all(root.path().join("folder/SKILL.md")).unwrap();
        assert_eq!(names(root.path()), ["linked", "piped"]);
    }

    #[test]
    fn a_file_named_skill_md_outside_a_folder_is_not_a_skill() {
        let root = tempfile::tempdir().unwrap();
        fs::write(root.path().join("SKILL.md"), "x").unwrap();
        assert_eq!(names(root.path()), Vec::<String>::new());
    }
}
