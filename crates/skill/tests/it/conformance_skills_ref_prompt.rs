//! Conformance with the reference implementation's prompt tests (`skills-ref` 0.1.1,
//! `tests/test_prompt.py`): each of its cases, rewritten with the same inputs. Where the original
//! only checks substrings, the full output is pinned too, as `to_prompt` produces it (verified
//! against `agentskills to-prompt` from the skills-ref package; its CLI adds one trailing newline,
//! which `skillcase prompt` adds as well).

use std::path::Path;

use skillcase_skill::disclosure::{index, IndexFormat};
use skillcase_skill::load::load_dir;
use skillcase_skill::model::Skill;
use skillcase_skill::policy::Policy;
use skillcase_skill::validate::Profile;

/// Writes `<root>/<folder>/SKILL.md` with the given frontmatter and body `Body`, exactly as the
/// reference test does, and loads it with the folder loader (standard profile), as skills-ref
/// reads it from disk.
fn skill_in(root: &Path, folder: &str, name: &str, description: &str) -> Skill {
    let dir = root.canonicalize().unwrap().join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: {description}\n---\nBody\n"),
    )
    .unwrap();
    let loaded = load_dir(&dir, Profile::Standard, &Policy::default());
    assert!(loaded.is_valid(), "{:?}", loaded.findings);
    loaded.skill.unwrap()
}

fn to_prompt(skills: &[Skill]) -> String {
    index(skills, IndexFormat::Agentskills, usize::MAX).text
}

/// The absolute path skills-ref prints: the resolved folder joined with `SKILL.md`.
fn location(root: &Path, folder: &str) -> String {
    root.canonicalize().unwrap().join(folder).join("SKILL.md").display().to_string()
}

#[test]
fn empty_list() {
    assert_eq!(to_prompt(&[]), "<available_skills>\n</available_skills>");
}

#[test]
fn single_skill() {
    let tmp = tempfile::tempdir().unwrap();
    let skill = skill_in(tmp.path(), "my-skill", "my-skill", "A test skill");
    let result = to_prompt(std::slice::from_ref(&skill));

    assert!(result.contains("<available_skills>"));
    assert!(result.contains("</available_skills>"));
    assert!(result.contains("<name>\nmy-skill\n</name>"));
    assert!(result.contains("<description>\nA test skill\n</description>"));
    assert!(result.contains("<location>"));
    assert!(result.contains("SKILL.md"));
    assert_eq!(
        result,
        format!(
            "<available_skills>\n<skill>\n<name>\nmy-skill\n</name>\n<description>\nA test skill\n</description>\n\
             <location>\n{}\n</location>\n</skill>\n</available_skills>",
            location(tmp.path(), "my-skill")
        )
    );
}

#[test]
fn multiple_skills() {
    let tmp = tempfile::tempdir().unwrap();
    let a = skill_in(tmp.path(), "skill-a", "skill-a", "First skill");
    let b = skill_in(tmp.path(), "skill-b", "skill-b", "Second skill");
    let result = to_prompt(&[a, b]);

    assert_eq!(result.matches("<skill>").count(), 2);
    assert_eq!(result.matches("</skill>").count(), 2);
    assert!(result.contains("skill-a"));
    assert!(result.contains("skill-b"));
    assert_eq!(
        result,
        format!(
            "<available_skills>\n\
             <skill>\n<name>\nskill-a\n</name>\n<description>\nFirst skill\n</description>\n<location>\n{}\n</location>\n</skill>\n\
             <skill>\n<name>\nskill-b\n</name>\n<description>\nSecond skill\n</description>\n<location>\n{}\n</location>\n</skill>\n\
             </available_skills>",
            location(tmp.path(), "skill-a"),
            location(tmp.path(), "skill-b")
        )
    );
}

#[test]
fn special_characters_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let skill = skill_in(tmp.path(), "special-skill", "special-skill", "Use <foo> & <bar> tags");
    let result = to_prompt(&[skill]);

    assert!(result.contains("&lt;foo&gt;"));
    assert!(result.contains("&amp;"));
    assert!(result.contains("&lt;bar&gt;"));
    assert!(!result.contains("<foo>"));
    assert!(!result.contains("<bar>"));
    assert!(result.contains("<description>\nUse &lt;foo&gt; &amp; &lt;bar&gt; tags\n</description>"));
}
