//! Which skill a changed path belongs to, and which paths are noise.
//!
//! A skill is the first path segment under the skills directory. Tool folders (`.git/`,
//! `node_modules/`, any hidden folder), editor scratch files (`*.swp`, `*~`, `.#*`, vim's `4913`,
//! `*.tmp`) and paths deeper than the depth limit never name a skill: a change there is not a
//! change to the skill's content. The real file an editor renames its scratch file onto is kept.

use std::path::{Component, Path};

/// Folder names that belong to tools, never to a skill's content, at any depth.
const TOOL_FOLDERS: &[&str] = &[".git", ".hg", ".svn", "node_modules", "__pycache__", "__MACOSX"];

/// The skill a path under `root` belongs to, or `None` when the path is the root itself, lies
/// outside it, is noise, or is more than `max_depth` folders deep inside a skill.
pub(crate) fn skill_of(root: &Path, path: &Path, max_depth: usize) -> Option<String> {
    let relative = path.strip_prefix(root).ok()?;
    let segments: Vec<&str> = relative
        .components()
        .map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let (leaf, folders) = segments.split_last()?;
    let skill = segments[0];
    let ignored =
        is_ignored_folder(skill) || folders.iter().any(|f| is_ignored_folder(f)) || is_noise_leaf(leaf);
    (!ignored && segments.len() <= max_depth + 1).then(|| skill.to_string())
}

/// True for a folder the watcher neither walks nor reports: tool folders and hidden folders.
pub(crate) fn is_ignored_folder(name: &str) -> bool {
    skillcase_skill::discover::is_skipped_name(name)
}

/// True for a last path segment that is never skill content: a tool folder, an editor's scratch
/// or backup file, or OS litter.
fn is_noise_leaf(name: &str) -> bool {
    TOOL_FOLDERS.contains(&name)
        || name == "4913"
        || name == ".DS_Store"
        || name.starts_with(".#")
        || name.ends_with('~')
        || [".swp", ".swx", ".swo", ".tmp"].iter().any(|ext| name.ends_with(ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(path: &str) -> Option<String> {
        skill_of(Path::new("/skills"), Path::new(path), 3)
    }

    #[test]
    fn a_path_belongs_to_its_first_segment_under_the_root() {
        assert_eq!(skill("/skills/frete/SKILL.md").as_deref(), Some("frete"));
        assert_eq!(skill("/skills/frete/references/tabela.md").as_deref(), Some("frete"));
        assert_eq!(skill("/skills/frete").as_deref(), Some("frete"));
    }

    #[test]
    fn the_root_and_paths_outside_it_belong_to_no_skill() {
        assert_eq!(skill("/skills"), None);
        assert_eq!(skill("/elsewhere/frete/SKILL.md"), None);
    }

    #[test]
    fn tool_and_hidden_folders_are_ignored_at_any_depth() {
        assert_eq!(skill("/skills/.git/index"), None);
        assert_eq!(skill("/skills/.git"), None);
        assert_eq!(skill("/skills/.drafts"), None);
        assert_eq!(skill("/skills/frete/.git/HEAD"), None);
        assert_eq!(skill("/skills/frete/node_modules/x/index.js"), None);
        assert_eq!(skill("/skills/frete/.cache/x"), None);
    }

    #[test]
    fn editor_scratch_files_are_ignored_but_their_rename_target_is_not() {
        for noise in [".SKILL.md.swp", "SKILL.md~", ".#SKILL.md", "4913", "SKILL.md.tmp", ".DS_Store"] {
            assert_eq!(skill(&format!("/skills/frete/{noise}")), None, "{noise}");
        }
        assert_eq!(skill("/skills/frete/.env").as_deref(), Some("frete"));
    }

    #[test]
    fn paths_deeper_than_the_limit_are_ignored() {
        assert_eq!(skill("/skills/frete/a/b/c.md").as_deref(), Some("frete"));
        assert_eq!(skill("/skills/frete/a/b/c/d.md"), None);
    }
}
