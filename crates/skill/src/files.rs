//! What each path in a skill is (SPEC A1, A9): its kind, whether it is infrastructure, OS junk
//! or executable content. One place decides, so the loader, the zip inspector, the disclosure
//! renderer and the library always agree.

use crate::model::FileKind;

/// Folders whose files are offered to the agent (level 3) or stored as support material.
pub const SUPPORT_FOLDERS: &[&str] = &["references", "assets", "templates", "scripts"];

/// Extensions that make a file executable content wherever it sits.
pub const EXECUTABLE_EXTENSIONS: &[&str] = &[
    "py", "sh", "bash", "zsh", "js", "mjs", "cjs", "ts", "rb", "pl", "ps1", "bat", "cmd", "exe", "com", "php",
];

/// File names (in any folder) that are infrastructure: stored, never offered as references.
const INFRASTRUCTURE_NAMES: &[&str] = &[
    "skill.config.yaml",
    "skill.triggers.json",
    "requirements.txt",
    "package.json",
    "package-lock.json",
    "tsconfig.json",
    ".env",
];

/// The kind of a file from its relative path (`/` separators).
pub fn kind_of(path: &str) -> FileKind {
    if path == "SKILL.md" || path == "skill.md" {
        return FileKind::SkillMd;
    }
    if is_infrastructure(path) {
        return FileKind::Config;
    }
    match path.split('/').next().unwrap_or("") {
        "references" => FileKind::Reference,
        "assets" => FileKind::Asset,
        "templates" => FileKind::Template,
        "scripts" => FileKind::Script,
        _ => FileKind::Reference,
    }
}

/// Infrastructure files (A1): configuration and licences, never listed as references.
pub fn is_infrastructure(path: &str) -> bool {
    let name = file_name(path);
    INFRASTRUCTURE_NAMES.contains(&name) || name.starts_with("LICENSE") || name.starts_with("LICENCE")
}

/// Folders of OS and tool junk: macOS resource forks, Python and test caches, installed
/// packages, version control.
const JUNK_FOLDERS: &[&str] = &["__MACOSX", "__pycache__", ".pytest_cache", "node_modules", ".git"];
/// Files of OS junk: Finder and Explorer metadata.
const JUNK_FILES: &[&str] = &[".DS_Store", "Thumbs.db", "desktop.ini"];

/// OS and tool junk that every folder walk, import and export drops silently (`__MACOSX/`,
/// `.DS_Store`, `._*` resource forks, `desktop.ini`, `__pycache__/`, `*.pyc`, `.pytest_cache/`, ...).
pub fn is_junk(path: &str) -> bool {
    let name = file_name(path);
    path.split('/').any(|seg| JUNK_FOLDERS.contains(&seg))
        || JUNK_FILES.contains(&name)
        || (name.starts_with("._") && name.len() > 2)
        || name.ends_with(".pyc")
}

/// True when the path starts with one of the support folders and names something inside it.
pub fn is_support_path(path: &str) -> bool {
    match path.split_once('/') {
        Some((top, rest)) => SUPPORT_FOLDERS.contains(&top) && !rest.is_empty(),
        None => false,
    }
}

/// Executable content (A1): a file under `scripts/` other than text and infrastructure files,
/// or anywhere a file with an executable extension, a shebang (`#!` as first bytes) or an exec
/// bit (`unix_mode & 0o111`).
pub fn is_executable(path: &str, first_bytes: &[u8], unix_mode: Option<u32>) -> bool {
    let ext = extension(path);
    let under_scripts = path.starts_with("scripts/");
    let texty = matches!(ext.as_str(), "md" | "txt" | "csv" | "json" | "yaml" | "yml");
    EXECUTABLE_EXTENSIONS.contains(&ext.as_str())
        || first_bytes.starts_with(b"#!")
        || unix_mode.is_some_and(|m| m & 0o111 != 0)
        || (under_scripts && !texty && !is_infrastructure(path))
}

/// Lowercase extension without the dot (`""` when there is none).
pub fn extension(path: &str) -> String {
    let name = file_name(path);
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => ext.to_ascii_lowercase(),
        _ => String::new(),
    }
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_follow_the_folder() {
        assert_eq!(kind_of("SKILL.md"), FileKind::SkillMd);
        assert_eq!(kind_of("references/tabela.md"), FileKind::Reference);
        assert_eq!(kind_of("assets/logo.png"), FileKind::Asset);
        assert_eq!(kind_of("templates/email.txt"), FileKind::Template);
        assert_eq!(kind_of("scripts/run.py"), FileKind::Script);
        assert_eq!(kind_of("skill.config.yaml"), FileKind::Config);
        assert_eq!(kind_of("LICENSE.txt"), FileKind::Config);
    }

    #[test]
    fn infrastructure_and_junk_are_recognised() {
        assert!(is_infrastructure("scripts/requirements.txt"));
        assert!(is_infrastructure("LICENSE"));
        assert!(!is_infrastructure("references/license-terms.md"));
        assert!(is_junk("__MACOSX/skill/._SKILL.md"));
        assert!(is_junk("references/.DS_Store"));
        assert!(is_junk("scripts/__pycache__/x.cpython-311.pyc"));
        assert!(is_junk("references/._tabela.md"));
        assert!(is_junk("assets/desktop.ini"));
        assert!(is_junk(".pytest_cache/v/cache/nodeids"));
        assert!(!is_junk("references/a.md"));
    }

    #[test]
    fn executable_content_is_detected_by_extension_shebang_mode_and_scripts_folder() {
        assert!(is_executable("references/helper.py", b"", None));
        assert!(is_executable("references/tool", b"#!/bin/sh\n", None));
        assert!(is_executable("assets/bin", b"\x7fELF", Some(0o755)));
        assert!(is_executable("scripts/tool.bin", b"", None));
        assert!(!is_executable("scripts/README.md", b"# notes", None));
        assert!(!is_executable("references/a.md", b"# A", Some(0o644)));
    }

    #[test]
    fn support_paths_start_with_a_support_folder() {
        assert!(is_support_path("references/a.md"));
        assert!(!is_support_path("references/"));
        assert!(!is_support_path("SKILL.md"));
        assert!(!is_support_path("other/a.md"));
    }
}
