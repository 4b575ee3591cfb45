//! The 142 real public skills in `../shared/corpus` validated under each profile, with the
//! verdicts and the count of every finding code pinned. A change in these numbers is a change in
//! behaviour on real input and must be deliberate.

use std::collections::BTreeMap;

use skillcase_skill::load::load_dir;
use skillcase_skill::policy::Policy;
use skillcase_skill::validate::{Profile, ALL_CODES};
use skillcase_skill::yaml::parse_full;
use skillcase_skill::yaml_fast::parse_simple;

use skillcase_testkit::corpus;

use corpus::{root as corpus_root, skill_dirs};

struct Tally {
    invalid: Vec<String>,
    valid: usize,
    codes: BTreeMap<String, usize>,
}

fn tally(profile: Profile) -> Tally {
    let mut t = Tally { invalid: Vec::new(), valid: 0, codes: BTreeMap::new() };
    for dir in skill_dirs() {
        let v = load_dir(&dir, profile, &Policy::default());
        if v.is_valid() {
            t.valid += 1;
        } else {
            t.invalid.push(dir.file_name().unwrap().to_string_lossy().into_owned());
        }
        for f in v.findings {
            assert!(ALL_CODES.contains(&f.code.as_str()), "undocumented code {}", f.code);
            *t.codes.entry(f.code).or_default() += 1;
        }
    }
    t
}

fn counts(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|(c, n)| (c.to_string(), *n)).collect()
}

#[test]
fn the_corpus_has_142_skills() {
    assert_eq!(skill_dirs().len(), 142);
}

#[test]
fn standard_profile_verdicts_and_codes_on_the_corpus() {
    let t = tally(Profile::Standard);
    assert_eq!(t.valid, 137);
    assert_eq!(t.invalid, ["claude-api", "adaptyv", "database-lookup", "markdown-mermaid-writing", "rowan"]);
    assert_eq!(
        t.codes,
        counts(&[
            ("body_too_long", 44),
            ("body_too_many_tokens", 25),
            ("description_too_long", 2),
            ("metadata_value_not_string", 2),
            ("reference_nested", 24),
            ("reference_without_toc", 377),
            ("unknown_key", 1),
        ])
    );
}

#[test]
fn claude_profile_verdicts_and_codes_on_the_corpus() {
    let t = tally(Profile::Claude);
    assert_eq!(t.valid, 137);
    assert_eq!(t.invalid, ["claude-api", "adaptyv", "database-lookup", "markdown-mermaid-writing", "rowan"]);
    assert_eq!(
        t.codes,
        counts(&[
            ("body_too_long", 44),
            ("body_too_many_tokens", 25),
            ("description_too_long", 2),
            ("metadata_value_not_string", 2),
            ("name_reserved_word", 1),
            ("reference_nested", 24),
            ("reference_without_toc", 377),
            ("unknown_key", 1),
        ])
    );
}

#[test]
fn skillcase_profile_verdicts_and_codes_on_the_corpus() {
    let t = tally(Profile::Skillcase);
    assert_eq!(t.valid, 138);
    assert_eq!(t.invalid, ["claude-api", "database-lookup", "markdown-mermaid-writing", "rowan"]);
    assert_eq!(
        t.codes,
        counts(&[
            ("agent_tool_required", 1),
            ("body_link_broken", 10),
            ("body_long", 73),
            ("body_too_long", 44),
            ("body_too_many_tokens", 25),
            ("crlf_line_endings", 1),
            ("description_too_long", 2),
            ("metadata_value_not_string", 2),
            ("reference_nested", 24),
            ("reference_without_toc", 377),
            ("too_many_files", 2),
            ("unknown_key", 1),
        ])
    );
}

#[test]
fn claude_api_is_invalid_under_standard_for_its_long_description() {
    let v =
        load_dir(&corpus_root().join("anthropics-skills/claude-api"), Profile::Standard, &Policy::default());
    let errors: Vec<&str> = v.findings.iter().filter(|f| f.is_error()).map(|f| f.code.as_str()).collect();
    assert_eq!(errors, ["description_too_long"]);
}

/// The frontmatter text between the `---` lines of a SKILL.md.
fn frontmatter_yaml(text: &str) -> String {
    let mut lines = text.split_inclusive('\n').skip(1);
    let yaml: Vec<&str> = lines.by_ref().take_while(|l| l.trim_end() != "---").collect();
    yaml.concat()
}

#[test]
fn the_fast_frontmatter_path_agrees_with_the_yaml_parser_on_every_corpus_skill() {
    let mut fast_hits = 0;
    for dir in skill_dirs() {
        let text = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
        let yaml = frontmatter_yaml(&text);
        let Some(fast) = parse_simple(&yaml, 1) else { continue };
        fast_hits += 1;
        let mut findings = Vec::new();
        let full = parse_full(&yaml, "SKILL.md", 1, &mut findings).unwrap();
        assert_eq!(Some(fast), full, "{}", dir.display());
        assert!(findings.is_empty());
    }
    assert_eq!(fast_hits, 131, "corpus frontmatters taking the fast path");
}
