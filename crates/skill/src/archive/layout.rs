//! Where the skill sits inside the zip (SPEC A8): `SKILL.md` at the root, or exactly one
//! top-level folder holding `SKILL.md`. Anything else is refused with a code saying which.

use crate::archive::codes;
use crate::finding::Finding;

/// The skill root inside the zip: `None` for the root, `Some(folder)` for one top folder.
pub type Root = Option<String>;

/// Decides the layout from the names of the kept files (junk and folders already left out).
pub fn detect(files: &[&str]) -> Result<Root, Finding> {
    let skill_mds: Vec<&str> = files
        .iter()
        .copied()
        .filter(|p| p.split('/').count() <= 2 && p.rsplit('/').next() == Some("SKILL.md"))
        .collect();
    if skill_mds.len() > 1 {
        return Err(Finding::error(
            codes::MULTIPLE_SKILL_MD,
            skill_mds[1],
            format!(
                "the archive holds more than one SKILL.md ({}); one zip carries one skill",
                skill_mds.join(", ")
            ),
        )
        .hint("zip each skill on its own"));
    }
    if files.contains(&"SKILL.md") {
        return Ok(None);
    }
    let Some(first) = skill_mds.first() else {
        return Err(no_skill_md(files));
    };
    let mut tops: Vec<&str> = files.iter().map(|p| p.split_once('/').map_or(*p, |(top, _)| top)).collect();
    tops.sort_unstable();
    tops.dedup();
    let folder = first.split_once('/').map_or("", |(top, _)| top);
    match tops.as_slice() {
        [only] if *only == folder && files.iter().all(|p| p.contains('/')) => Ok(Some(folder.to_string())),
        _ => Err(Finding::error(
            codes::MULTIPLE_TOP_FOLDERS,
            tops.iter().find(|t| **t != folder).copied().unwrap_or(folder),
            format!(
                "the skill folder `{folder}` is not alone at the top of the archive (found: {})",
                tops.join(", ")
            ),
        )
        .hint("zip only the skill folder, or put SKILL.md and its folders at the root of the zip")),
    }
}

fn no_skill_md(files: &[&str]) -> Finding {
    let lowercase =
        files.iter().find(|p| p.rsplit('/').next().is_some_and(|n| n.eq_ignore_ascii_case("SKILL.md")));
    let hint = match lowercase {
        Some(name) => format!("rename `{name}` to SKILL.md (upper case)"),
        None => "put SKILL.md at the root of the zip, or in the one folder the zip holds".to_string(),
    };
    Finding::error(
        codes::NO_SKILL_MD,
        "",
        "the archive has no SKILL.md at its root or in a single top folder",
    )
    .hint(hint)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(files: &[&str]) -> String {
        detect(files).unwrap_err().code
    }

    #[test]
    fn skill_md_at_the_root_is_the_root_layout() {
        assert_eq!(detect(&["SKILL.md", "references/a.md"]).unwrap(), None);
    }

    #[test]
    fn one_folder_holding_skill_md_is_the_folder_layout() {
        assert_eq!(detect(&["frete/SKILL.md", "frete/references/a.md"]).unwrap(), Some("frete".to_string()));
    }

    #[test]
    fn refused_layouts_say_which() {
        assert_eq!(code(&["README.md"]), codes::NO_SKILL_MD);
        assert_eq!(code(&[]), codes::NO_SKILL_MD);
        assert_eq!(code(&["frete/sub/SKILL.md"]), codes::NO_SKILL_MD);
        assert_eq!(code(&["a/SKILL.md", "b/SKILL.md"]), codes::MULTIPLE_SKILL_MD);
        assert_eq!(code(&["SKILL.md", "b/SKILL.md"]), codes::MULTIPLE_SKILL_MD);
        assert_eq!(code(&["a/SKILL.md", "b/notes.md"]), codes::MULTIPLE_TOP_FOLDERS);
        assert_eq!(code(&["a/SKILL.md", "notes.md"]), codes::MULTIPLE_TOP_FOLDERS);
    }

    #[test]
    fn a_lowercase_skill_md_gets_a_rename_hint() {
        let finding = detect(&["skill.md"]).unwrap_err();
        assert_eq!(finding.hint.as_deref(), Some("rename `skill.md` to SKILL.md (upper case)"));
    }
}
