//! The named promise rules of both languages, compiled once.
//!
//! Each language file keeps its vocabulary in small tables (people and teams, future markers,
//! contact verbs, ...) and composes them into a handful of readable patterns, one per way a
//! support message can promise a human follow-up. A rule matches inside one sentence of the
//! normalised text; the checks that a match is really a commitment (not negated, not an offer,
//! not a question) live in `detect`, shared by every rule.

mod en;
mod pt;

use std::sync::LazyLock;

use regex::{Regex, RegexSet};

use super::detect::Language;

/// One way of promising a human follow-up: `name` is what the evidence reports.
pub(crate) struct Rule {
    pub name: &'static str,
    pub language: Language,
    pub regex: Regex,
}

/// Every rule, plus a set over all of them so a sentence no rule can match is rejected in one pass.
pub(crate) struct Rules {
    pub rules: Vec<Rule>,
    pub any: RegexSet,
}

/// The compiled rules, built on first use.
pub(crate) static RULES: LazyLock<Rules> = LazyLock::new(|| {
    let sources: Vec<(&'static str, Language, String)> = pt::rules()
        .into_iter()
        .map(|(name, pattern)| (name, Language::PtBr, pattern))
        .chain(en::rules().into_iter().map(|(name, pattern)| (name, Language::En, pattern)))
        .collect();
    let any = RegexSet::new(sources.iter().map(|(_, _, pattern)| pattern)).expect("guard rules compile");
    let rules = sources
        .into_iter()
        .map(|(name, language, pattern)| Rule {
            name,
            language,
            regex: Regex::new(&pattern).unwrap_or_else(|e| panic!("guard rule {name}: {e}")),
        })
        .collect();
    Rules { rules, any }
});

/// `(?:a|b|c)`: one of the table's entries (entries are regex fragments, most of them plain words).
pub(crate) fn one_of(words: &[&str]) -> String {
    format!("(?:{})", words.join("|"))
}

/// Up to `n` more words of the same sentence and clause-insensitive (commas allowed), each
/// preceded by one space: the slack between an actor and its verb ("alguém do setor de trocas vai").
pub(crate) fn gap(n: usize) -> String {
    format!(r"(?: [^\s.!?;:]+){{0,{n}}}?")
}

/// Zero to `n` words taken from `words`, each followed by one space ("um dos nossos ").
pub(crate) fn some_of(words: &[&str], n: usize) -> String {
    format!("(?:{} ){{0,{n}}}", one_of(words))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_compiles_and_has_a_unique_name() {
        let names: std::collections::BTreeSet<_> = RULES.rules.iter().map(|r| r.name).collect();
        assert_eq!(names.len(), RULES.rules.len());
        assert_eq!(RULES.any.len(), RULES.rules.len());
    }
}
