//! Fuzzes the SKILL.md frontmatter parser: any text must yield a frontmatter or findings, never
//! a panic or a hang. It also checks the fast YAML path against the real parser: whenever the
//! fast path answers, its tree must be exactly the real parser's.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skillcase_skill::{frontmatter, yaml, yaml_fast};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = frontmatter::parse(text);
    if let Some(fast) = yaml_fast::parse_simple(text, 1) {
        let mut findings = Vec::new();
        let full = yaml::parse_full(text, "SKILL.md", 1, &mut findings);
        assert_eq!(full.ok().flatten(), Some(fast), "fast path disagrees with the real parser");
    }
});
