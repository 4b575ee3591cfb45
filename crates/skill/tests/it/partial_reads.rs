//! `load_dir` reads of each file only what the profile's rules look at (`validate::needs`); the
//! whole package read by `package_from_dir` is the reference. On every real skill of the corpus and
//! under every profile, both must give the same skill and the same findings, in the same order.

use skillcase_skill::load::{load_dir, package_from_dir};
use skillcase_skill::policy::Policy;
use skillcase_skill::validate::{validate_package, Profile};

use skillcase_testkit::corpus;

#[test]
fn reading_only_what_the_rules_need_changes_no_finding_on_the_corpus() {
    let policy = Policy::default();
    let dirs = corpus::skill_dirs();
    assert_eq!(dirs.len(), 142);
    for dir in &dirs {
        let whole = package_from_dir(dir).unwrap();
        for profile in [Profile::Standard, Profile::Claude, Profile::Skillcase] {
            let partial = load_dir(dir, profile, &policy);
            let mut full = validate_package(&whole, profile, &policy);
            if let Some(skill) = full.skill.as_mut() {
                skill.dir = partial.skill.as_ref().map(|s| s.dir.clone()).unwrap_or_default();
            }
            assert_eq!(partial, full, "{} under {}", dir.display(), profile.as_str());
        }
    }
}
