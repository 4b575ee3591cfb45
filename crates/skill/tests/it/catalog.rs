//! The factory catalog in `skills-examples/` (SPEC A9 `catalog` origin): every skill is valid under
//! the `skillcase` profile with no warning except the compute-entry tool note, and together the
//! skills exercise every extension of SPEC A3. A catalog edit that breaks either fails here.

use std::path::{Path, PathBuf};

use skillcase_skill::load::load_dir;
use skillcase_skill::model::{FileKind, Skill, SkillType};
use skillcase_skill::policy::Policy;
use skillcase_skill::validate::Profile;

fn catalog_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skills-examples");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("the catalog is missing at {}: {e}", root.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("SKILL.md").is_file())
        .collect();
    dirs.sort();
    dirs
}

fn catalog_skills() -> Vec<Skill> {
    catalog_dirs()
        .iter()
        .map(|dir| {
            let v = load_dir(dir, Profile::Skillcase, &Policy::default());
            v.skill.unwrap_or_else(|| panic!("{} did not load: {:?}", dir.display(), v.findings))
        })
        .collect()
}

#[test]
fn every_catalog_skill_is_valid_and_only_the_compute_entry_skill_warns() {
    let dirs = catalog_dirs();
    assert!(dirs.len() >= 8, "the catalog holds {} skills, expected at least 8", dirs.len());
    for dir in dirs {
        let v = load_dir(&dir, Profile::Skillcase, &Policy::default());
        let codes: Vec<&str> = v.findings.iter().map(|f| f.code.as_str()).collect();
        let expected: &[&str] =
            if dir.ends_with("cotacao-de-frete") { &["agent_tool_required"] } else { &[] };
        assert_eq!(codes, expected, "{}: {:?}", dir.display(), v.findings);
        assert!(v.is_valid(), "{} is invalid", dir.display());
    }
}

#[test]
fn every_catalog_skill_is_also_valid_under_the_standard_and_claude_profiles() {
    for dir in catalog_dirs() {
        for profile in [Profile::Standard, Profile::Claude] {
            let v = load_dir(&dir, profile, &Policy::default());
            assert!(v.findings.is_empty(), "{} under {}: {:?}", dir.display(), profile.as_str(), v.findings);
        }
    }
}

#[test]
fn every_catalog_skill_has_a_category_tags_and_a_required_reference() {
    for s in catalog_skills() {
        assert!(s.config.category.as_deref().is_some_and(|c| !c.is_empty()), "{} has no category", s.name);
        assert!(!s.config.tags.is_empty(), "{} has no tags", s.name);
        assert!(!s.config.references.required.is_empty(), "{} has no required reference", s.name);
    }
}

#[test]
fn the_catalog_exercises_every_extension() {
    let skills = catalog_skills();
    let any = |pred: &dyn Fn(&Skill) -> bool| skills.iter().any(pred);
    assert!(
        any(&|s| s.config.matcher.as_ref().is_some_and(|m| !m.probe_keywords.is_empty())),
        "probe keywords"
    );
    assert!(any(&|s| !s.config.references.routes.is_empty()), "reference routes");
    assert!(any(&|s| s.is_hidden()), "a hidden skill");
    assert!(
        any(&|s| s.skill_type == SkillType::ComputeEntry && s.config.interface.is_some()),
        "compute-entry"
    );
    assert!(any(&|s| s.files.iter().any(|f| f.kind == FileKind::Asset)), "an asset");
    assert!(any(&|s| s.files.iter().any(|f| f.kind == FileKind::Template)), "a template");
    let optional_reference = |s: &Skill| {
        let refs = &s.config.references;
        s.files.iter().any(|f| {
            f.kind == FileKind::Reference
                && !refs.required.contains(&f.path)
                && !refs.routes.iter().any(|r| r.required_refs.contains(&f.path))
        })
    };
    assert!(any(&optional_reference), "an optional reference");
}

#[test]
fn the_freight_quote_interface_takes_a_required_cep_and_optional_numbers() {
    let quote =
        catalog_skills().into_iter().find(|s| s.name == "cotacao-de-frete").expect("cotacao-de-frete");
    let inputs: Vec<(String, String, bool)> = quote
        .config
        .interface
        .expect("an interface")
        .input
        .into_iter()
        .map(|(name, field)| (name, field.type_, field.required))
        .collect();
    let expected = [("cep", "string", true), ("peso_kg", "number", false), ("valor_pedido", "number", false)]
        .map(|(n, t, r)| (n.to_string(), t.to_string(), r));
    assert_eq!(inputs, expected);
}
