//! Huge and endless files in the skills directory: a 2 GB sparse `SKILL.md` without a
//! closing `---`, a 2 GB `skill.config.yaml`, and one that is a link to `/dev/zero`. The scan must
//! finish promptly with a finding on that skill, having read none of it: the peak memory of the
//! test's process (each test runs alone in a process of its own, so other tests do not blur it)
//! stays far below the file.
#![cfg(unix)]

use crate::support;

use std::time::{Duration, Instant};

use skillcase_skill::finding::Finding;
use skillcase_testkit::hostile::{peak_resident_bytes, reset_peak_resident, sparse_file};
use skillcase_testkit::own_process::in_own_process;
use skillcase_testkit::skills::{skill_md, write_skill};
use support::Workspace;

const TWO_GB: u64 = 2 * 1024 * 1024 * 1024;
/// Far more than a scan of a few small skills needs, far less than any of the files below.
const MEMORY_BOUND: u64 = 256 * 1024 * 1024;

/// Scans a workspace holding `frete` (valid) and the skill `bad` as `make` leaves it, and
/// returns `bad`'s findings, checking that the scan took little time and memory.
fn scan_with(make: impl FnOnce(&std::path::Path)) -> Vec<Finding> {
    let workspace = Workspace::new();
    write_skill(&workspace.skills(), "frete", &[("SKILL.md", &skill_md("frete", "Calcula o frete."))]);
    let bad = workspace.skills().join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    make(&bad);
    reset_peak_resident();
    let (before, started) = (peak_resident_bytes().unwrap(), Instant::now());
    let library = workspace.open();
    let took = started.elapsed();
    let grew = peak_resident_bytes().unwrap().saturating_sub(before);
    assert!(grew < MEMORY_BOUND, "the scan grew the peak memory by {grew} bytes");
    assert!(took < Duration::from_secs(5), "the scan took {took:?}");
    assert_eq!(library.summary("frete").unwrap().validity.errors, 0);
    library.findings("bad").unwrap()
}

/// Runs the test `test` alone in a process of its own: the peak memory is then its scan's.
fn alone(test: &str, scenario: impl FnOnce()) {
    in_own_process(test, |_| (), scenario);
}

fn codes(findings: &[Finding]) -> Vec<(&str, &str)> {
    findings.iter().map(|f| (f.code.as_str(), f.file.as_str())).collect()
}

#[test]
fn a_2_gb_skill_md_without_a_closing_line_is_refused_unread() {
    alone("hostile_sizes::a_2_gb_skill_md_without_a_closing_line_is_refused_unread", || {
        let findings = scan_with(|bad| {
            sparse_file(&bad.join("SKILL.md"), b"---\nname: bad\ndescription: never closed\n", TWO_GB)
        });
        assert_eq!(codes(&findings), [("file_too_large", "SKILL.md")]);
    });
}

#[test]
fn a_2_gb_skill_config_yaml_is_refused_unread() {
    alone("hostile_sizes::a_2_gb_skill_config_yaml_is_refused_unread", || {
        let findings = scan_with(|bad| {
            std::fs::write(bad.join("SKILL.md"), skill_md("bad", "Has a huge config.")).unwrap();
            sparse_file(&bad.join("skill.config.yaml"), b"category: vendas\n", TWO_GB);
        });
        assert_eq!(codes(&findings), [("file_too_large", "skill.config.yaml")]);
    });
}

#[test]
fn a_skill_config_yaml_linked_to_dev_zero_is_refused_unread() {
    alone("hostile_sizes::a_skill_config_yaml_linked_to_dev_zero_is_refused_unread", || {
        let findings = scan_with(|bad| {
            std::fs::write(bad.join("SKILL.md"), skill_md("bad", "Has an endless config.")).unwrap();
            std::os::unix::fs::symlink("/dev/zero", bad.join("skill.config.yaml")).unwrap();
        });
        assert_eq!(codes(&findings), [("symlink", "skill.config.yaml")]);
    });
}

#[test]
fn a_skill_md_linked_to_dev_zero_is_refused_unread() {
    alone("hostile_sizes::a_skill_md_linked_to_dev_zero_is_refused_unread", || {
        let findings =
            scan_with(|bad| std::os::unix::fs::symlink("/dev/zero", bad.join("SKILL.md")).unwrap());
        assert_eq!(codes(&findings), [("symlink", "SKILL.md")]);
    });
}
