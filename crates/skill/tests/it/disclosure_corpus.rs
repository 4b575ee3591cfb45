//! The three disclosure levels over the real public skills in `../shared/corpus`: every valid
//! skill is listed once at level 1, renders at level 2, and every reference level 2 offers can be
//! opened at level 3. (Byte identity of level 1 with `skills-ref to-prompt` on this corpus was
//! checked by running both; see the bench and report.)

use skillcase_common::error::Coded;
use skillcase_skill::disclosure::{activation, activation_plan, dir_reader, file, index, IndexFormat};
use skillcase_skill::load::load_dir;
use skillcase_skill::model::Skill;
use skillcase_skill::policy::Policy;
use skillcase_skill::validate::Profile;

use skillcase_testkit::corpus;

/// The most a level-2/3 read takes from one file (the default policy's limit).
const MAX_READ: u64 = 1024 * 1024;

/// The valid skills of the corpus under the `skillcase` profile (the ones Skillcase serves).
fn valid_skills() -> Vec<Skill> {
    corpus::skill_dirs()
        .iter()
        .map(|d| load_dir(d, Profile::Skillcase, &Policy::default()))
        .filter(|v| v.is_valid())
        .filter_map(|v| v.skill)
        .collect()
}

#[test]
fn every_valid_corpus_skill_is_listed_once_in_both_formats() {
    let skills = valid_skills();
    assert!(skills.len() > 100, "only {} valid skills", skills.len());
    for format in [IndexFormat::Agentskills, IndexFormat::Skillcase] {
        let out = index(&skills, format, usize::MAX);
        assert!(out.entries.iter().all(|e| e.included));
        let opening = match format {
            IndexFormat::Agentskills => "<skill>\n",
            IndexFormat::Skillcase => "<skill name=",
        };
        assert_eq!(out.text.matches(opening).count(), skills.len(), "{format:?}");
        assert_eq!(out.used_chars, out.text.chars().count());
    }
}

#[test]
fn every_reference_level_two_offers_opens_at_level_three() {
    let mut offered = 0;
    for skill in valid_skills() {
        let text = activation(&skill, None, &dir_reader(&skill, MAX_READ)).unwrap();
        assert!(text.starts_with(skill.body.trim_start_matches('\n').lines().next().unwrap_or("")));
        let plan = activation_plan(&skill, None);
        for path in plan.required.iter().chain(&plan.optional) {
            offered += 1;
            match file(&skill, path, &dir_reader(&skill, MAX_READ)) {
                Ok(_) => {}
                Err(e) => assert_eq!(e.code(), "file_not_text", "{}/{path}: {e}", skill.name),
            }
        }
    }
    assert!(offered > 50, "only {offered} references offered across the corpus");
}
