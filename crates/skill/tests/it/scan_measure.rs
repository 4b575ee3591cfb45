//! The security scan's precision and recall per category, pinned: the labelled malicious skills of
//! `tests/data/scan/` (the `train` split the rules were written against and the `held-out` split
//! they were not) against the 142 clean real skills of the shared corpus. The README and
//! `docs/performance.md` report these figures; `eval-scan` prints them with every miss and false
//! alarm named. A rule change that moves a figure must update all three.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use skillcase_skill::scan::measure::{clean, flagged, malicious, measure, Counts, Sample};
use skillcase_skill::scan::Category::{self, *};
use skillcase_testkit::corpus;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/scan")
}

fn counts_on(split: &str) -> BTreeMap<Category, (u32, u32, u32)> {
    let mut samples: Vec<Sample> = malicious(&data(), split).unwrap();
    samples.extend(clean(&corpus::root()).unwrap());
    measure(&samples, flagged)
        .into_iter()
        .map(|(c, Counts { true_positives, false_positives, false_negatives })| {
            (c, (true_positives, false_positives, false_negatives))
        })
        .collect()
}

/// (flagged right, false alarms, missed) per category.
fn expected(rows: [(Category, (u32, u32, u32)); 7]) -> BTreeMap<Category, (u32, u32, u32)> {
    rows.into_iter().collect()
}

/// Every rule a skill folder can trigger: `scan_incomplete` needs a package read only in part,
/// which no folder read whole is (`scan_rules.rs` builds one).
#[test]
fn every_rule_has_a_malicious_skill_in_the_train_split() {
    let mut fired = std::collections::BTreeSet::new();
    for sample in malicious(&data(), "train").unwrap() {
        let pkg = skillcase_skill::load::package_from_dir(&sample.dir).unwrap();
        fired.extend(skillcase_skill::scan::scan_package(&pkg).into_iter().map(|f| f.code));
    }
    let rules: std::collections::BTreeSet<String> = skillcase_skill::scan::RULES
        .iter()
        .map(|r| r.code.to_string())
        .filter(|code| code != "scan_incomplete")
        .collect();
    assert_eq!(fired, rules);
}

#[test]
fn on_the_train_split_every_malicious_skill_is_caught_and_two_real_skills_are_flagged() {
    let want = expected([
        (Secrets, (6, 0, 0)),
        (RemoteExec, (6, 0, 0)),
        (HiddenUnicode, (3, 1, 0)),
        (HiddenBytes, (2, 0, 0)),
        (HiddenInstructions, (4, 0, 0)),
        (SuspiciousLinks, (4, 1, 0)),
        (ExecBits, (3, 0, 0)),
    ]);
    assert_eq!(counts_on("train"), want);
}

#[test]
fn on_the_held_out_split_the_figures_are_those_measured_once() {
    let want = expected([
        (Secrets, (2, 0, 2)),
        (RemoteExec, (4, 0, 2)),
        (HiddenUnicode, (3, 1, 1)),
        (HiddenBytes, (0, 0, 0)),
        (HiddenInstructions, (3, 0, 2)),
        (SuspiciousLinks, (3, 1, 2)),
        (ExecBits, (4, 0, 0)),
    ]);
    assert_eq!(counts_on("held-out"), want);
}

#[test]
fn the_clean_corpus_has_no_critical_or_error_finding_but_one_invisible_mark() {
    let mut serious = Vec::new();
    for sample in clean(&corpus::root()).unwrap() {
        let pkg = skillcase_skill::load::package_from_dir(&sample.dir).unwrap();
        for f in skillcase_skill::scan::scan_package(&pkg) {
            if f.is_error() {
                serious.push(format!("{}: {}", sample.dir.display(), f.code));
            }
        }
    }
    assert_eq!(serious.len(), 2, "{serious:#?}");
    assert!(
        serious.iter().all(|s| s.ends_with("markdown-mermaid-writing: unicode_invisible")),
        "{serious:#?}"
    );
}
