//! Conformance with the reference validator `skills-ref` (PyPI, version 0.1.1): each of its
//! parser and validator test cases, restated in our own words with the same input, must give
//! the same verdict under the `standard` profile. Where skills-ref contradicts the specification
//! the spec wins; those cases sit at the end and are listed in `docs/skills-ref-divergences.md`.

use std::fs;
use std::path::{Path, PathBuf};

use skillcase_skill::frontmatter;
use skillcase_skill::load::load_dir;
use skillcase_skill::policy::Policy;
use skillcase_skill::validate::{Profile, Validated, ALL_CODES};
use tempfile::TempDir;

/// Writes `<tmp>/<folder>/<file>` with `text` and returns the skill folder.
fn write_skill(tmp: &TempDir, folder: &str, file: &str, text: &str) -> PathBuf {
    let dir = tmp.path().join(folder);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(file), text).unwrap();
    dir
}

fn standard(dir: &Path) -> Validated {
    let v = load_dir(dir, Profile::Standard, &Policy::default());
    for f in &v.findings {
        assert!(ALL_CODES.contains(&f.code.as_str()), "undocumented code {}", f.code);
    }
    v
}

fn codes(v: &Validated) -> Vec<&str> {
    v.findings.iter().filter(|f| f.is_error()).map(|f| f.code.as_str()).collect()
}

fn verdict_for(folder: &str, text: &str) -> Validated {
    let tmp = TempDir::new().unwrap();
    standard(&write_skill(&tmp, folder, "SKILL.md", text))
}

// --- parser cases ----------------------------------------------------------------------------

#[test]
fn frontmatter_with_name_and_description_splits_from_the_body() {
    let fm = frontmatter::parse(
        "---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n\nInstructions here.\n",
    )
    .unwrap();
    assert_eq!(fm.get("name").unwrap().as_text(), Some("my-skill"));
    assert_eq!(fm.get("description").unwrap().as_text(), Some("A test skill"));
    assert!(fm.body.contains("# My Skill"));
}

#[test]
fn text_without_frontmatter_is_refused() {
    let err = frontmatter::parse("# No frontmatter here").unwrap_err();
    assert_eq!(err[0].code, "frontmatter_missing");
}

#[test]
fn frontmatter_that_is_never_closed_is_refused() {
    let err = frontmatter::parse("---\nname: my-skill\ndescription: A test skill\n").unwrap_err();
    assert_eq!(err[0].code, "frontmatter_unclosed");
}

#[test]
fn an_unterminated_flow_list_is_invalid_yaml() {
    let err = frontmatter::parse("---\nname: [invalid\ndescription: broken\n---\nBody here\n").unwrap_err();
    assert_eq!(err[0].code, "yaml_syntax");
}

#[test]
fn a_frontmatter_that_is_a_list_is_not_a_mapping() {
    let err = frontmatter::parse("---\n- just\n- a\n- list\n---\nBody\n").unwrap_err();
    assert_eq!(err[0].code, "yaml_not_mapping");
}

#[test]
fn a_skill_with_a_license_reads_its_properties() {
    let v = verdict_for(
        "my-skill",
        "---\nname: my-skill\ndescription: A test skill\nlicense: MIT\n---\n# My Skill\n",
    );
    assert!(v.is_valid(), "{:?}", v.findings);
    let skill = v.skill.unwrap();
    assert_eq!((skill.name.as_str(), skill.description.as_str()), ("my-skill", "A test skill"));
    assert_eq!(skill.license.as_deref(), Some("MIT"));
}

#[test]
fn metadata_values_are_read_as_text_including_an_unquoted_number() {
    let v = verdict_for(
        "my-skill",
        "---\nname: my-skill\ndescription: A test skill\nmetadata:\n  author: Test Author\n  version: 1.0\n---\nBody\n",
    );
    assert!(v.is_valid(), "{:?}", v.findings);
    let metadata = v.skill.unwrap().metadata;
    assert_eq!(metadata.get("author").map(String::as_str), Some("Test Author"));
    assert_eq!(metadata.get("version").map(String::as_str), Some("1.0"));
    assert_eq!(metadata.len(), 2);
}

#[test]
fn reading_a_folder_without_skill_md_fails() {
    let tmp = TempDir::new().unwrap();
    assert_eq!(codes(&standard(tmp.path())), ["skill_md_missing"]);
}

#[test]
fn a_skill_without_name_is_missing_a_required_field() {
    let v = verdict_for("my-skill", "---\ndescription: A test skill\n---\nBody\n");
    assert_eq!(codes(&v), ["name_missing"]);
}

#[test]
fn a_skill_without_description_is_missing_a_required_field() {
    let v = verdict_for("my-skill", "---\nname: my-skill\n---\nBody\n");
    assert_eq!(codes(&v), ["description_missing"]);
}

#[test]
fn upper_case_skill_md_is_preferred_when_both_spellings_exist() {
    let tmp = TempDir::new().unwrap();
    let dir = write_skill(&tmp, "my-skill", "SKILL.md", "uppercase");
    fs::write(dir.join("skill.md"), "lowercase").unwrap();
    let v = standard(&dir);
    assert_eq!(codes(&v), ["frontmatter_missing"]);
    assert_eq!(v.findings[0].file, "SKILL.md");
}

#[test]
fn lower_case_skill_md_is_used_when_it_is_the_only_one() {
    let tmp = TempDir::new().unwrap();
    let v = standard(&write_skill(&tmp, "my-skill", "skill.md", "lowercase"));
    assert_eq!(codes(&v), ["frontmatter_missing"]);
    assert_eq!(v.findings[0].file, "skill.md");
}

#[test]
fn a_folder_with_neither_spelling_has_no_skill_md() {
    let tmp = TempDir::new().unwrap();
    fs::create_dir(tmp.path().join("my-skill")).unwrap();
    assert_eq!(codes(&standard(&tmp.path().join("my-skill"))), ["skill_md_missing"]);
}

#[test]
fn properties_are_read_from_a_lower_case_skill_md() {
    let tmp = TempDir::new().unwrap();
    let dir = write_skill(
        &tmp,
        "my-skill",
        "skill.md",
        "---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n",
    );
    let v = standard(&dir);
    assert!(v.is_valid(), "{:?}", v.findings);
    assert_eq!(v.skill.unwrap().name, "my-skill");
}

#[test]
fn allowed_tools_is_kept_verbatim() {
    let v = verdict_for(
        "my-skill",
        "---\nname: my-skill\ndescription: A test skill\nallowed-tools: Bash(jq:*) Bash(git:*)\n---\nBody\n",
    );
    assert_eq!(v.skill.unwrap().allowed_tools.as_deref(), Some("Bash(jq:*) Bash(git:*)"));
}

// --- validator cases -------------------------------------------------------------------------

#[test]
fn a_minimal_skill_is_valid() {
    let v = verdict_for("my-skill", "---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n");
    assert!(v.is_valid() && v.findings.is_empty(), "{:?}", v.findings);
}

#[test]
fn a_path_that_does_not_exist_is_one_error() {
    let tmp = TempDir::new().unwrap();
    let v = standard(&tmp.path().join("nonexistent"));
    assert_eq!(codes(&v), ["path_not_found"]);
    assert!(v.findings[0].message.contains("does not exist"));
}

#[test]
fn a_file_is_not_a_skill_directory() {
    let tmp = TempDir::new().unwrap();
    let file = tmp.path().join("file.txt");
    fs::write(&file, "test").unwrap();
    assert_eq!(codes(&standard(&file)), ["not_a_directory"]);
}

#[test]
fn an_empty_skill_folder_is_missing_skill_md() {
    let tmp = TempDir::new().unwrap();
    fs::create_dir(tmp.path().join("my-skill")).unwrap();
    let v = standard(&tmp.path().join("my-skill"));
    assert_eq!(codes(&v), ["skill_md_missing"]);
}

#[test]
fn an_upper_case_name_is_invalid() {
    let v = verdict_for("MySkill", "---\nname: MySkill\ndescription: A test skill\n---\nBody\n");
    assert!(codes(&v).contains(&"name_uppercase"));
}

#[test]
fn a_name_of_70_characters_exceeds_the_limit() {
    let name = "a".repeat(70);
    let v = verdict_for(&name, &format!("---\nname: {name}\ndescription: A test skill\n---\nBody\n"));
    assert!(codes(&v).contains(&"name_too_long"));
}

#[test]
fn a_leading_hyphen_is_invalid() {
    let v = verdict_for("-my-skill", "---\nname: -my-skill\ndescription: A test skill\n---\nBody\n");
    assert!(codes(&v).contains(&"name_hyphen_edge"));
}

#[test]
fn consecutive_hyphens_are_invalid() {
    let v = verdict_for("my--skill", "---\nname: my--skill\ndescription: A test skill\n---\nBody\n");
    assert!(codes(&v).contains(&"name_consecutive_hyphens"));
}

#[test]
fn an_underscore_is_an_invalid_character() {
    let v = verdict_for("my_skill", "---\nname: my_skill\ndescription: A test skill\n---\nBody\n");
    assert!(codes(&v).contains(&"name_invalid_chars"));
}

#[test]
fn a_name_different_from_its_folder_is_invalid() {
    let v = verdict_for("wrong-name", "---\nname: correct-name\ndescription: A test skill\n---\nBody\n");
    assert!(codes(&v).contains(&"name_mismatch"));
}

#[test]
fn an_unknown_frontmatter_field_is_invalid() {
    let v = verdict_for(
        "my-skill",
        "---\nname: my-skill\ndescription: A test skill\nunknown_field: should not be here\n---\nBody\n",
    );
    assert_eq!(codes(&v), ["unknown_key"]);
}

#[test]
fn license_and_metadata_together_are_valid() {
    let v = verdict_for(
        "my-skill",
        "---\nname: my-skill\ndescription: A test skill\nlicense: MIT\nmetadata:\n  author: Test\n---\nBody\n",
    );
    assert!(v.is_valid() && v.findings.is_empty(), "{:?}", v.findings);
}

#[test]
fn the_experimental_allowed_tools_field_is_valid() {
    let v = verdict_for(
        "my-skill",
        "---\nname: my-skill\ndescription: A test skill\nallowed-tools: Bash(jq:*) Bash(git:*)\n---\nBody\n",
    );
    assert!(v.is_valid() && v.findings.is_empty(), "{:?}", v.findings);
}

#[test]
fn a_chinese_name_is_valid() {
    let v = verdict_for("技能", "---\nname: 技能\ndescription: A skill with Chinese name\n---\nBody\n");
    assert!(v.is_valid() && v.findings.is_empty(), "{:?}", v.findings);
}

#[test]
fn a_russian_name_with_hyphens_is_valid() {
    let v =
        verdict_for("мой-навык", "---\nname: мой-навык\ndescription: A skill with Russian name\n---\nBody\n");
    assert!(v.is_valid() && v.findings.is_empty(), "{:?}", v.findings);
}

#[test]
fn a_lower_case_russian_name_is_valid() {
    let v = verdict_for(
        "навык",
        "---\nname: навык\ndescription: A skill with Russian lowercase name\n---\nBody\n",
    );
    assert!(v.is_valid() && v.findings.is_empty(), "{:?}", v.findings);
}

#[test]
fn an_upper_case_russian_name_is_invalid() {
    let v = verdict_for(
        "НАВЫК",
        "---\nname: НАВЫК\ndescription: A skill with Russian uppercase name\n---\nBody\n",
    );
    assert!(codes(&v).contains(&"name_uppercase"));
}

#[test]
fn a_description_of_1100_characters_exceeds_1024() {
    let long = "x".repeat(1100);
    let v = verdict_for("my-skill", &format!("---\nname: my-skill\ndescription: {long}\n---\nBody\n"));
    assert_eq!(codes(&v), ["description_too_long"]);
    assert!(v.findings[0].message.contains("1024"));
}

#[test]
fn a_short_compatibility_is_valid() {
    let v = verdict_for(
        "my-skill",
        "---\nname: my-skill\ndescription: A test skill\ncompatibility: Requires Python 3.11+\n---\nBody\n",
    );
    assert!(v.is_valid() && v.findings.is_empty(), "{:?}", v.findings);
}

#[test]
fn a_compatibility_of_550_characters_exceeds_500() {
    let long = "x".repeat(550);
    let v = verdict_for(
        "my-skill",
        &format!("---\nname: my-skill\ndescription: A test skill\ncompatibility: {long}\n---\nBody\n"),
    );
    assert_eq!(codes(&v), ["compatibility_too_long"]);
    assert!(v.findings[0].message.contains("500"));
}

#[test]
fn a_decomposed_name_matches_its_composed_folder_after_nfkc() {
    let v = verdict_for("caf\u{e9}", "---\nname: cafe\u{301}\ndescription: A test skill\n---\nBody\n");
    assert!(v.is_valid() && v.findings.is_empty(), "{:?}", v.findings);
}

// --- divergences: the specification decides (docs/skills-ref-divergences.md) ------------------

#[test]
fn divergence_triple_dash_inside_a_value_is_kept_whole() {
    let v = verdict_for("my-skill", "---\nname: my-skill\ndescription: a---b\n---\nBody\n");
    assert_eq!(v.skill.unwrap().description, "a---b");
    let v = verdict_for("my-skill", "---\nname: my-skill\ndescription: ---x\n---\nBody\n");
    assert!(v.is_valid(), "{:?}", v.findings);
}

#[test]
fn divergence_an_empty_compatibility_is_invalid() {
    let v = verdict_for("my-skill", "---\nname: my-skill\ndescription: d\ncompatibility: \"\"\n---\nBody\n");
    assert_eq!(codes(&v), ["compatibility_empty"]);
}

#[test]
fn divergence_flow_style_yaml_is_accepted() {
    let v =
        verdict_for("my-skill", "---\nname: my-skill\ndescription: d\nmetadata: {author: Ana}\n---\nBody\n");
    assert!(v.is_valid(), "{:?}", v.findings);
}

#[test]
fn divergence_an_anchor_without_alias_is_accepted() {
    let v = verdict_for("my-skill", "---\nname: my-skill\ndescription: &d A test skill\n---\nBody\n");
    assert!(v.is_valid(), "{:?}", v.findings);
}

#[test]
fn divergence_metadata_must_be_a_mapping_of_text() {
    let v = verdict_for("my-skill", "---\nname: my-skill\ndescription: d\nmetadata: hello\n---\nBody\n");
    assert_eq!(codes(&v), ["metadata_not_map"]);
    let v = verdict_for(
        "my-skill",
        "---\nname: my-skill\ndescription: d\nmetadata:\n  people:\n    - Ana\n---\nBody\n",
    );
    assert_eq!(codes(&v), ["metadata_value_not_string"]);
}

#[test]
fn divergence_license_must_be_text() {
    let v = verdict_for("my-skill", "---\nname: my-skill\ndescription: d\nlicense:\n  - MIT\n---\nBody\n");
    assert_eq!(codes(&v), ["field_type"]);
}

#[test]
fn divergence_a_null_name_is_empty_not_the_word_null() {
    let v = verdict_for("null", "---\nname: null\ndescription: d\n---\nBody\n");
    assert_eq!(codes(&v), ["name_empty"]);
}
