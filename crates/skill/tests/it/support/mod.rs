//! Builders for skills in tests: every field visible, nothing read from disk unless a test
//! writes it.
#![allow(dead_code)]

use skillcase_skill::files::{is_infrastructure, kind_of};
use skillcase_skill::model::{Skill, SkillConfig, SkillFile, SkillType};

/// A valid prompt skill in `/skills/<name>` with only `SKILL.md`.
pub fn skill(name: &str, description: &str) -> Skill {
    Skill {
        name: name.into(),
        description: description.into(),
        license: None,
        compatibility: None,
        metadata: Default::default(),
        allowed_tools: None,
        dir: format!("/skills/{name}").into(),
        body: String::new(),
        config: SkillConfig::default(),
        skill_type: SkillType::Prompt,
        files: vec![file("SKILL.md", 100)],
    }
}

/// A manifest entry with kind and infrastructure flag decided by `skill::files`.
pub fn file(path: &str, size: u64) -> SkillFile {
    SkillFile { path: path.into(), size, kind: kind_of(path), infrastructure: is_infrastructure(path) }
}

/// `skill` with extra files added to its manifest, kept sorted by path.
pub fn with_files(mut skill: Skill, paths: &[&str]) -> Skill {
    skill.files.extend(paths.iter().map(|p| file(p, 10)));
    skill.files.sort_by(|a, b| a.path.cmp(&b.path));
    skill
}

pub fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}
