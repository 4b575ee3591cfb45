//! `docs/finding-codes.md` is the one table of every finding code (validation, folder reading, zip
//! refusals). These tests pin it to the code lists in the source both ways — every code has a row,
//! every row is a code — and check that the lists themselves are complete and consistent.

use std::collections::BTreeSet;
use std::path::Path;

use skillcase_skill::archive::codes as archive_codes;
use skillcase_skill::scan::RULES;
use skillcase_skill::validate::ALL_CODES as VALIDATION_CODES;

const DOC: &str = include_str!("../../../../docs/finding-codes.md");
/// Where the security scan's own table starts (its columns differ: category and one severity).
const SCAN_HEADING: &str = "## Security scan";
const ARCHIVE_CODES_RS: &str = include_str!("../../src/archive/codes.rs");

/// The validation and zip table: everything before the scan's section.
fn validation_table() -> &'static str {
    &DOC[..DOC.find(SCAN_HEADING).expect("the scan section")]
}

/// The scan's table: its section.
fn scan_table() -> &'static str {
    &DOC[DOC.find(SCAN_HEADING).expect("the scan section")..]
}

/// The validation table's rows: (code, cells after the code).
fn rows() -> Vec<(&'static str, Vec<&'static str>)> {
    table_rows(validation_table())
}

fn table_rows(table: &'static str) -> Vec<(&'static str, Vec<&'static str>)> {
    table
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .map(|rest| {
            let (code, cells) = rest.split_once("` |").expect("a row starts with | `code` |");
            let cells = cells.trim_end().trim_end_matches('|').split(" | ").map(str::trim).collect();
            (code, cells)
        })
        .collect()
}

fn all_codes() -> Vec<&'static str> {
    VALIDATION_CODES.iter().chain(archive_codes::ALL_CODES).copied().collect()
}

#[test]
fn the_scan_table_lists_every_rule_in_order_with_its_category_and_severity() {
    let documented: Vec<(&str, &str, &str)> =
        table_rows(scan_table()).into_iter().map(|(code, cells)| (code, cells[0], cells[1])).collect();
    let rules: Vec<(&str, &str, &str)> =
        RULES.iter().map(|r| (r.code, r.category.as_str(), r.severity.as_str())).collect();
    assert_eq!(documented, rules);
}

#[test]
fn scan_codes_are_snake_case_and_shared_with_no_other_finding() {
    let others: BTreeSet<&str> = all_codes().into_iter().collect();
    for rule in RULES {
        assert!(
            rule.code.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_'),
            "{}",
            rule.code
        );
        assert!(!others.contains(rule.code), "`{}` is also a validation or zip code", rule.code);
    }
}

#[test]
fn every_code_in_the_source_has_a_row_in_the_table() {
    let documented: BTreeSet<&str> = rows().into_iter().map(|(code, _)| code).collect();
    let missing: Vec<&str> = all_codes().into_iter().filter(|c| !documented.contains(c)).collect();
    assert!(missing.is_empty(), "codes without a row in docs/finding-codes.md: {missing:?}");
}

#[test]
fn every_row_in_the_table_is_a_code_in_the_source() {
    let known: BTreeSet<&str> = all_codes().into_iter().collect();
    let stale: Vec<&str> = rows().into_iter().map(|(code, _)| code).filter(|c| !known.contains(c)).collect();
    assert!(stale.is_empty(), "rows for codes nothing emits: {stale:?}");
}

#[test]
fn each_code_has_exactly_one_row() {
    let mut seen = BTreeSet::new();
    let twice: Vec<&str> = rows().into_iter().map(|(code, _)| code).filter(|c| !seen.insert(*c)).collect();
    assert!(twice.is_empty(), "codes with more than one row: {twice:?}");
}

#[test]
fn rows_follow_the_order_of_the_source_lists() {
    let documented: Vec<&str> = rows().into_iter().map(|(code, _)| code).collect();
    assert_eq!(documented, all_codes());
}

#[test]
fn every_row_gives_a_severity_per_profile_a_meaning_and_a_fix() {
    for (code, cells) in rows() {
        assert_eq!(cells.len(), 8, "`{code}`: expected raised by, 5 severities, meaning, fix: {cells:?}");
        for severity in &cells[1..6] {
            let plain = severity.trim_end_matches('¹');
            assert!(["error", "warning", "—"].contains(&plain), "`{code}`: severity {severity:?}");
        }
        assert!(cells.iter().all(|c| !c.is_empty()), "`{code}` has an empty cell: {cells:?}");
    }
}

#[test]
fn codes_are_unique_snake_case_across_both_lists() {
    let mut seen = BTreeSet::new();
    for code in all_codes() {
        assert!(code.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_'), "{code}");
        assert!(seen.insert(code), "`{code}` is in both lists, or twice in one");
    }
}

#[test]
fn every_archive_code_constant_is_in_the_archive_list() {
    let constants: Vec<&str> = ARCHIVE_CODES_RS
        .lines()
        .filter(|l| l.starts_with("pub const ") && l.contains(": &str = \""))
        .filter_map(|l| l.split('"').nth(1))
        .collect();
    assert!(constants.len() >= 30, "parsed {} constants", constants.len());
    let unlisted: Vec<&&str> = constants.iter().filter(|c| !archive_codes::ALL_CODES.contains(c)).collect();
    assert!(unlisted.is_empty(), "constants missing from archive::codes::ALL_CODES: {unlisted:?}");
    assert_eq!(constants.len(), archive_codes::ALL_CODES.len());
}

/// Every code written as a literal where a finding is built (`Finding::error("code", ...)`,
/// `Finding::warning(`, `Finding::new(`) anywhere in the crate's sources.
fn literal_finding_codes(dir: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            literal_finding_codes(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for ctor in ["Finding::error(", "Finding::warning(", "Finding::new("] {
                for (i, _) in text.match_indices(ctor) {
                    let rest = text[i + ctor.len()..].trim_start();
                    if let Some(code) = rest.strip_prefix('"').and_then(|r| r.split('"').next()) {
                        out.insert(code.to_string());
                    }
                }
            }
        }
    }
}

#[test]
fn every_literal_code_in_the_sources_is_listed() {
    let mut literals = BTreeSet::new();
    for krate in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("..")).unwrap() {
        let src = krate.unwrap().path().join("src");
        if src.is_dir() {
            literal_finding_codes(&src, &mut literals);
        }
    }
    assert!(literals.len() >= 20, "found only {literals:?}");
    let known: BTreeSet<&str> = all_codes().into_iter().collect();
    let unlisted: Vec<&String> = literals.iter().filter(|c| !known.contains(c.as_str())).collect();
    assert!(unlisted.is_empty(), "findings built with codes no list names: {unlisted:?}");
}
