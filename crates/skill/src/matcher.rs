//! Keyword matching (SPEC A7): which skills a customer message activates, and how strongly.
//!
//! Matching is case- and accent-insensitive and on word boundaries. Both the message and each
//! keyword are [`normalize`]d and split into *words* (maximal runs of letters and digits); a
//! keyword occurs when its words appear consecutively in the message's words. So `Frete` matches
//! `frete`, `devolução` matches `devolucao`, `nota fiscal` matches `Nota  Fiscal!`, and `frete`
//! does not match `fretes`. A keyword that normalises to no words (`"!!"`) never matches.
//!
//! Hidden skills (`disable-model-invocation: true`) are matched like any other: the flag keeps
//! a skill out of the level-1 index (the model never *chooses* it from the list), while a
//! keyword in the customer's own message is a deterministic trigger, not a model decision. A
//! hidden skill with a matcher is therefore a skill that appears only when its keywords do.

use std::borrow::Borrow;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

use crate::model::Skill;

/// How a skill fired: a `hard` keyword activates it; a `probe` keyword alone is a near miss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum Trigger {
    Hard,
    Probe,
}

impl Trigger {
    /// `hard` or `probe`, as serialised.
    pub fn as_str(self) -> &'static str {
        match self {
            Trigger::Hard => "hard",
            Trigger::Probe => "probe",
        }
    }
}

/// One skill a message fired, with the keyword that fired it exactly as the skill declares it
/// (the first declared one when several occur).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SkillMatch {
    pub name: String,
    pub trigger: Trigger,
    pub keyword: String,
}

/// Case- and accent-folded text: Unicode NFKD, combining marks removed, lowercased.
/// `"Devolução ＦＲＥＴＥ"` becomes `"devolucao frete"`.
pub fn normalize(text: &str) -> String {
    text.nfkd().flat_map(char::to_lowercase).filter(|c| !is_combining_mark(*c)).collect()
}

/// The normalised words of `text`, in order: maximal runs of letters and digits.
pub fn words(text: &str) -> Vec<String> {
    normalize(text)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect()
}

/// True when `keyword` occurs on word boundaries in a message already split by [`words`].
pub fn contains_keyword(message_words: &[String], keyword: &str) -> bool {
    let needle = words(keyword);
    !needle.is_empty() && message_words.windows(needle.len()).any(|w| w == needle.as_slice())
}

/// Matches `message` against every skill with a matcher, in name order. Convenience for one-off
/// calls; a caller matching many messages against the same skills builds a [`KeywordIndex`] once.
pub fn match_message(skills: &[Skill], message: &str) -> Vec<SkillMatch> {
    KeywordIndex::new(skills).match_message(message)
}

/// One keyword of one skill, pre-split into words.
#[derive(Debug, Clone)]
struct Pattern {
    skill: usize,
    trigger: Trigger,
    /// Position among the skill's keywords of the same trigger, so the first declared wins.
    order: usize,
    keyword: String,
}

/// The keywords of a set of skills compiled for fast repeated matching: patterns are keyed by
/// their whole word sequence, so matching a message costs one hash lookup per message word and
/// distinct keyword length (in words), however many skills and keywords there are.
#[derive(Debug, Clone, Default)]
pub struct KeywordIndex {
    names: Vec<String>,
    patterns: Vec<Pattern>,
    by_words: HashMap<Vec<String>, Vec<usize>>,
    /// The distinct keyword lengths, in words, ascending.
    lengths: Vec<usize>,
}

impl KeywordIndex {
    /// Compiles the `matcher` keywords of `skills` (skills without a matcher never fire).
    pub fn new<S: Borrow<Skill>>(skills: &[S]) -> Self {
        let mut index = KeywordIndex::default();
        let mut order: Vec<&Skill> =
            skills.iter().map(Borrow::borrow).filter(|s| s.config.matcher.is_some()).collect();
        order.sort_by(|a, b| a.name.cmp(&b.name));
        for skill in order {
            let id = index.names.len();
            index.names.push(skill.name.clone());
            let matcher = skill.config.matcher.as_ref().expect("filtered on matcher");
            index.add(id, Trigger::Hard, &matcher.any_keywords);
            index.add(id, Trigger::Probe, &matcher.probe_keywords);
        }
        index.lengths.sort_unstable();
        index.lengths.dedup();
        index
    }

    fn add(&mut self, skill: usize, trigger: Trigger, keywords: &[String]) {
        for (order, keyword) in keywords.iter().enumerate() {
            let words = words(keyword);
            if words.is_empty() {
                continue;
            }
            self.lengths.push(words.len());
            self.by_words.entry(words).or_default().push(self.patterns.len());
            self.patterns.push(Pattern { skill, trigger, order, keyword: keyword.clone() });
        }
    }

    /// The skills `message` fires, in name order: `hard` when any `any_keywords` entry occurs,
    /// `probe` when only `probe_keywords` entries do.
    pub fn match_message(&self, message: &str) -> Vec<SkillMatch> {
        let message_words = words(message);
        // Per skill: the best (trigger, declaration order) seen; Hard < Probe, lower order wins.
        let mut best: HashMap<usize, (Trigger, usize, usize)> = HashMap::new();
        for at in 0..message_words.len() {
            for &len in self.lengths.iter().take_while(|&&len| at + len <= message_words.len()) {
                let Some(ids) = self.by_words.get(&message_words[at..at + len]) else { continue };
                for &id in ids {
                    let p = &self.patterns[id];
                    let key = (p.trigger, p.order, id);
                    best.entry(p.skill).and_modify(|b| *b = (*b).min(key)).or_insert(key);
                }
            }
        }
        let mut hits: Vec<(usize, usize)> = best.into_iter().map(|(skill, (_, _, id))| (skill, id)).collect();
        hits.sort_unstable();
        hits.into_iter()
            .map(|(skill, id)| {
                let p = &self.patterns[id];
                SkillMatch { name: self.names[skill].clone(), trigger: p.trigger, keyword: p.keyword.clone() }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Matcher, SkillConfig, SkillType};

    fn skill(name: &str, hard: &[&str], probe: &[&str]) -> Skill {
        Skill {
            name: name.into(),
            description: format!("{name} skill"),
            license: None,
            compatibility: None,
            metadata: Default::default(),
            allowed_tools: None,
            dir: format!("/skills/{name}").into(),
            body: String::new(),
            config: SkillConfig {
                matcher: Some(Matcher {
                    any_keywords: hard.iter().map(|s| s.to_string()).collect(),
                    probe_keywords: probe.iter().map(|s| s.to_string()).collect(),
                }),
                ..Default::default()
            },
            skill_type: SkillType::Prompt,
            files: vec![],
        }
    }

    fn hard(name: &str, keyword: &str) -> SkillMatch {
        SkillMatch { name: name.into(), trigger: Trigger::Hard, keyword: keyword.into() }
    }

    fn probe(name: &str, keyword: &str) -> SkillMatch {
        SkillMatch { name: name.into(), trigger: Trigger::Probe, keyword: keyword.into() }
    }

    #[test]
    fn normalize_folds_case_accents_and_compatibility_forms() {
        assert_eq!(normalize("Devolução"), "devolucao");
        assert_eq!(normalize("ÉÇÃÕ Ü"), "ecao u");
        assert_eq!(normalize("ＦＲＥＴＥ"), "frete");
        assert_eq!(normalize("İstanbul"), "istanbul");
    }

    #[test]
    fn words_split_on_anything_but_letters_and_digits() {
        assert_eq!(words("Qual o frete? (2ª via)"), ["qual", "o", "frete", "2a", "via"]);
    }

    #[test]
    fn keyword_matches_regardless_of_case() {
        let skills = [skill("frete", &["frete"], &[])];
        assert_eq!(match_message(&skills, "Quanto custa o FRETE"), [hard("frete", "frete")]);
        assert_eq!(match_message(&skills, "Frete grátis?"), [hard("frete", "frete")]);
    }

    #[test]
    fn keyword_matches_regardless_of_accents_both_ways() {
        let accented = [skill("trocas", &["devolução"], &[])];
        assert_eq!(match_message(&accented, "quero fazer a devolucao"), [hard("trocas", "devolução")]);
        let plain = [skill("trocas", &["devolucao"], &[])];
        assert_eq!(match_message(&plain, "Quero fazer a DEVOLUÇÃO"), [hard("trocas", "devolucao")]);
    }

    #[test]
    fn keyword_inside_a_longer_word_does_not_match() {
        let skills = [skill("frete", &["frete"], &[])];
        assert_eq!(match_message(&skills, "os fretes estão caros"), []);
        assert_eq!(match_message(&skills, "antifrete"), []);
        let english = [skill("shipping", &["ship"], &[])];
        assert_eq!(match_message(&english, "what about shipping?"), []);
    }

    #[test]
    fn punctuation_around_a_keyword_is_a_boundary() {
        let skills = [skill("frete", &["frete"], &[])];
        for message in ["frete?", "(frete)", "\"frete\"", "frete, entrega", "...frete!", "frete-grátis"] {
            assert_eq!(match_message(&skills, message), [hard("frete", "frete")], "{message}");
        }
    }

    #[test]
    fn multi_word_keyword_matches_consecutive_words_only() {
        let skills = [skill("nf", &["nota fiscal"], &[])];
        assert_eq!(match_message(&skills, "Cadê minha Nota  Fiscal?"), [hard("nf", "nota fiscal")]);
        assert_eq!(match_message(&skills, "preciso da nota-fiscal"), [hard("nf", "nota fiscal")]);
        assert_eq!(match_message(&skills, "a nota não é fiscal"), []);
        let english = [skill("refunds", &["money back"], &[])];
        assert_eq!(match_message(&english, "I want my MONEY BACK."), [hard("refunds", "money back")]);
    }

    #[test]
    fn probe_fires_only_when_no_hard_keyword_occurs() {
        let skills = [skill("frete", &["frete", "entrega"], &["envio"])];
        assert_eq!(match_message(&skills, "como funciona o envio?"), [probe("frete", "envio")]);
        assert_eq!(match_message(&skills, "envio e entrega"), [hard("frete", "entrega")]);
    }

    #[test]
    fn first_declared_keyword_is_reported_when_several_occur() {
        let skills = [skill("frete", &["frete", "entrega"], &[])];
        assert_eq!(match_message(&skills, "entrega e frete"), [hard("frete", "frete")]);
    }

    #[test]
    fn matches_come_in_name_order_and_skills_without_matcher_never_fire() {
        let mut plain = skill("aaa", &[], &[]);
        plain.config.matcher = None;
        let skills = [skill("zeta", &["order"], &[]), plain, skill("alpha", &[], &["order status"])];
        assert_eq!(
            match_message(&skills, "what is my order status"),
            [probe("alpha", "order status"), hard("zeta", "order")]
        );
    }

    #[test]
    fn hidden_skills_are_still_matched() {
        let mut hidden = skill("segredo", &["cupom"], &[]);
        hidden.config.hidden = true;
        assert_eq!(match_message(&[hidden], "tem cupom?"), [hard("segredo", "cupom")]);
    }

    #[test]
    fn keyword_without_letters_or_digits_never_matches() {
        let skills = [skill("odd", &["!!", " "], &[])];
        assert_eq!(match_message(&skills, "!! "), []);
    }

    #[test]
    fn contains_keyword_reads_pre_split_words() {
        let message = words("Quero trocar o produto");
        assert!(contains_keyword(&message, "Trocar"));
        assert!(!contains_keyword(&message, "troca"));
    }

    #[test]
    fn trigger_serialises_lowercase() {
        assert_eq!(
            serde_json::to_string(&hard("a", "b")).unwrap(),
            r#"{"name":"a","trigger":"hard","keyword":"b"}"#
        );
    }
}
