//! Does a message promise that a person will follow up? (SPEC B5)
//!
//! Where the line is. A *promise* commits to contact or work that happens after this message,
//! by someone the assistant cannot be inside the chat: a person or team ("um atendente vai entrar
//! em contato", "someone from billing will call you"), the assistant checking with such people
//! ("vou verificar com a equipe", "I'll check with my supervisor"), a hand-over ("vou encaminhar
//! para o responsável", "let me transfer you to a human agent", "I've escalated your case"), or
//! the assistant coming back later on its own ("te retorno mais tarde", "I'll get back to you") —
//! the assistant only speaks when the lead writes, so a later return needs a case behind it.
//!
//! *Clear* is everything the assistant does itself within the turn — sending a link, checking an
//! order's status in a system, explaining — and, even when a person is named: offers the lead has
//! not accepted ("quer que eu chame um atendente?", "if you'd prefer, I can connect you"),
//! questions, what the lead can do ("você pode ligar para nossa central"), automatic messages
//! ("you'll receive an automatic confirmation email"), past events ("a equipe já entrou em contato
//! ontem") and negations ("ninguém vai te ligar").
//!
//! Rules (see `rules/`) find the shape of a promise inside one sentence; this module then drops
//! a match that is negated, offered, asked or automatic.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::normalize::{normalize, Normalized};
use super::rules::{Rule, RULES};

/// The language a message (or the rule that fired on it) is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardLanguage")]
pub enum Language {
    /// Brazilian Portuguese.
    #[serde(rename = "pt-BR")]
    PtBr,
    /// English.
    #[serde(rename = "en")]
    En,
    /// Too short or too mixed to tell.
    #[serde(rename = "unknown")]
    Unknown,
}

/// What the detector found in one message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardDetection")]
pub struct Detection {
    /// True when the message promises a human follow-up.
    pub promise: bool,
    /// The name of the rule that fired (for example `pt.consult_people`).
    pub rule: Option<String>,
    /// The words of the message that make the promise, as the agent wrote them.
    pub evidence: Option<String>,
    /// The language of the rule that fired, or the message's language when none did.
    pub language: Language,
}

/// Looks for a promise of a human follow-up in `message` (any case, with or without accents).
pub fn detect(message: &str) -> Detection {
    let norm = normalize(message);
    for (from, to) in sentences(&norm.text) {
        let sentence = &norm.text[from..to];
        for index in RULES.any.matches(sentence).iter() {
            let rule = &RULES.rules[index];
            if let Some(m) =
                rule.regex.find_iter(sentence).find(|m| commits(sentence, m.start(), m.end(), rule))
            {
                return found(message, &norm, rule, from + m.start(), from + m.end());
            }
        }
    }
    Detection { promise: false, rule: None, evidence: None, language: guess_language(&norm.text) }
}

fn found(message: &str, norm: &Normalized, rule: &Rule, start: usize, end: usize) -> Detection {
    let evidence = norm.original(message, start, end).trim_end_matches([',', '.', ';', '!', ' ']).to_string();
    Detection {
        promise: true,
        rule: Some(rule.name.to_string()),
        evidence: Some(evidence),
        language: rule.language,
    }
}

/// Byte ranges of the sentences of normalised text: a sentence ends at `.`, `!`, `?` or `;`
/// followed by a space or the end, and at a line break.
fn sentences(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let next = bytes.get(i + 1).copied();
        let ends = match b {
            b'\n' => true,
            b'.' | b'!' | b'?' | b';' => matches!(next, None | Some(b' ' | b'\n' | b'"' | b')')),
            _ => false,
        };
        if ends {
            push_sentence(&mut out, text, start, i + 1);
            start = i + 1;
        }
    }
    push_sentence(&mut out, text, start, bytes.len());
    out
}

fn push_sentence(out: &mut Vec<(usize, usize)>, text: &str, start: usize, end: usize) {
    let piece = &text[start..end];
    let lead = piece.len() - piece.trim_start().len();
    if piece.trim().len() > 1 {
        out.push((start + lead, end));
    }
}

/// Whether the match at `start..end` of `sentence` commits to a follow-up (is not negated,
/// offered, asked, or about an automatic message).
fn commits(sentence: &str, start: usize, end: usize, rule: &Rule) -> bool {
    let cues = cues(rule.language);
    let clause = clause_start(sentence, start);
    let before_in_clause = &sentence[clause..start];
    let window = format!("{} {}", last_words(before_in_clause, 3), &sentence[start..end]);
    let window = cues.reassurance.replace_all(&window, "");
    !(cues.negation.is_match(&window)
        || cues.offer.is_match(before_in_clause)
        || cues.condition.is_match(&sentence[..start])
        || is_asked(sentence, end)
        || AUTOMATIC.is_match(&format!("{} {}", &sentence[start..end], first_words(&sentence[end..], 3))))
}

/// Start of the clause holding `at`: after the last comma, colon or dash before it.
fn clause_start(sentence: &str, at: usize) -> usize {
    let before = &sentence[..at];
    [before.rfind(','), before.rfind(':'), before.rfind(" - ")]
        .into_iter()
        .flatten()
        .max()
        .map_or(0, |i| i + 1)
}

/// A question: the sentence ends with `?` and no clause break separates the match from it
/// ("Vou verificar com a equipe, tudo bem?" still promises).
fn is_asked(sentence: &str, end: usize) -> bool {
    let tail = &sentence[end..];
    tail.trim_end().ends_with('?') && !tail.contains([',', ':', ';']) && !tail.contains(" - ")
}

fn last_words(text: &str, n: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    words[words.len().saturating_sub(n)..].join(" ")
}

fn first_words(text: &str, n: usize) -> String {
    text.split_whitespace().take(n).collect::<Vec<_>>().join(" ")
}

/// The phrases that undo a match, per language.
struct Cues {
    negation: Regex,
    reassurance: Regex,
    offer: Regex,
    condition: Regex,
}

static PT_CUES: LazyLock<Cues> = LazyLock::new(|| {
    Cues {
    negation: Regex::new(r"\b(?:nao|nunca|jamais|ninguem|nenhum|nenhuma|nem)\b").unwrap(),
    reassurance: Regex::new(r"\bnao (?:se preocupe|precisa se preocupar|tem problema|ha problema)\b").unwrap(),
    offer: Regex::new(
        r"\b(?:quer que|gostaria que|deseja que|prefere que|posso|podemos|poderia|poderiamos|que tal|se (?:voce )?(?:quiser|preferir|desejar|achar melhor|precisar)|caso (?:voce )?(?:queira|prefira|deseje|precise))\b",
    )
    .unwrap(),
    condition: Regex::new(
        r"\b(?:se (?:voce |o senhor |a senhora )?(?:quiser|preferir|desejar|achar melhor)|caso (?:voce )?(?:queira|prefira|deseje))\b",
    )
    .unwrap(),
}
});

static EN_CUES: LazyLock<Cues> = LazyLock::new(|| {
    Cues {
    negation: Regex::new(
        r"\b(?:not|never|no one|nobody|none|no longer|won't|don't|doesn't|didn't|can't|cannot|wouldn't|shouldn't|isn't|aren't)\b",
    )
    .unwrap(),
    reassurance: Regex::new(r"\b(?:don't worry|no worries|not a problem|never mind)\b").unwrap(),
    offer: Regex::new(
        r"\b(?:would you like|would you prefer|do you want|did you want|want me to|should i|shall i|can i|may i|could i|i can|i could|we can|we could|how about|would it help|is it ok if|if you(?:'d| would)? (?:like|want|prefer|wish))\b",
    )
    .unwrap(),
    condition: Regex::new(r"\bif you(?:'d| would)? (?:like|want|prefer|wish)\b").unwrap(),
}
});

/// Messages sent by a machine are not a person's follow-up.
static AUTOMATIC: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(?:automat\w*|robo|bot|no-?reply)\b").unwrap());

fn cues(language: Language) -> &'static Cues {
    match language {
        Language::En => &EN_CUES,
        _ => &PT_CUES,
    }
}

static PT_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:voce|nao|que|de|do|da|um|uma|para|com|seu|sua|vou|esta|isso|no|na|os|as|por|mais|te|obrigad[oa])\b")
        .unwrap()
});
static EN_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:you|your|the|to|of|and|is|are|will|i|i'll|we|this|that|it|for|with|be|our|my|let|me|thanks)\b",
    )
    .unwrap()
});

/// The language with more of its common words in `text`; unknown on a tie.
fn guess_language(text: &str) -> Language {
    let pt = PT_WORDS.find_iter(text).count();
    let en = EN_WORDS.find_iter(text).count();
    match pt.cmp(&en) {
        std::cmp::Ordering::Greater => Language::PtBr,
        std::cmp::Ordering::Less => Language::En,
        std::cmp::Ordering::Equal => Language::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn promise(message: &str) -> bool {
        detect(message).promise
    }

    #[test]
    fn a_promise_reports_its_rule_its_words_as_written_and_its_language() {
        let found = detect("Obrigado pela paciência! Vou verificar com a Equipe e te retorno.");
        assert_eq!(found.rule.as_deref(), Some("pt.consult_people"));
        assert_eq!(found.evidence.as_deref(), Some("Vou verificar com a Equipe"));
        assert_eq!(found.language, Language::PtBr);
    }

    #[test]
    fn detection_ignores_accents_and_case() {
        assert!(promise("UM ATENDENTE VAI ENTRAR EM CONTATO"));
        assert!(promise("um atendente vai entrar em contato"));
        assert!(promise("Te retorno mais tarde"));
    }

    #[test]
    fn a_clear_message_reports_the_language_it_is_written_in() {
        let found = detect("I'll send you the tracking number.");
        assert_eq!((found.promise, found.rule, found.evidence), (false, None, None));
        assert_eq!(found.language, Language::En);
        assert_eq!(detect("Vou te mandar o link.").language, Language::PtBr);
    }

    #[test]
    fn what_the_assistant_does_itself_is_clear() {
        assert!(!promise("Vou te mandar o link."));
        assert!(!promise("Vou verificar o status do seu pedido."));
        assert!(!promise("I'll send you the tracking number."));
        assert!(!promise("Let me check your order status."));
    }

    #[test]
    fn checking_with_people_is_a_promise_but_checking_a_system_is_not() {
        assert!(promise("Vou consultar o setor financeiro."));
        assert!(!promise("Vou consultar o sistema."));
        assert!(promise("Let me check with my supervisor."));
        assert!(!promise("Let me check the system."));
    }

    #[test]
    fn a_department_as_the_object_of_a_check_is_a_thing_not_people() {
        assert!(!promise("Let me check your billing."));
        assert!(promise("Let me check with billing."));
    }

    #[test]
    fn sending_something_for_a_team_is_not_a_hand_over_but_sending_it_to_a_team_is() {
        assert!(!promise("I'll send the link for our sales promotion."));
        assert!(promise("I've sent your photos to our warehouse team."));
    }

    #[test]
    fn offers_the_lead_has_not_accepted_are_clear() {
        assert!(!promise("Quer que eu chame um atendente?"));
        assert!(!promise("Would you like me to connect you with sales?"));
        assert!(!promise("Se preferir, vou pedir para um atendente te ligar."));
        assert!(!promise("If you'd like, I'll have someone from billing call you."));
    }

    #[test]
    fn a_promise_followed_by_a_tag_question_is_still_a_promise() {
        assert!(promise("Vou verificar com a equipe e te retorno, tudo bem?"));
        assert!(promise("I'll check with the team and get back to you, ok?"));
    }

    #[test]
    fn negated_follow_ups_are_clear_but_reassurance_is_not_a_negation() {
        assert!(!promise("Ninguém vai te ligar."));
        assert!(!promise("Nobody from our team will call you."));
        assert!(!promise("We won't contact you by phone."));
        assert!(promise("Não se preocupe que a equipe vai te ligar amanhã."));
        assert!(promise("Don't worry, someone from billing will call you."));
    }

    #[test]
    fn automatic_messages_past_events_and_what_the_lead_can_do_are_clear() {
        assert!(!promise("Você vai receber um e-mail automático de confirmação."));
        assert!(!promise("You'll receive an automatic confirmation email."));
        assert!(!promise("A equipe já entrou em contato ontem."));
        assert!(!promise("Our team already reached out to you yesterday."));
        assert!(!promise("Você pode ligar para nossa central."));
        assert!(!promise("You can call our support line."));
    }

    #[test]
    fn a_promise_in_a_later_sentence_or_line_is_found() {
        assert!(promise("Seu pedido está em trânsito.\nUm consultor vai te ligar amanhã."));
        assert!(promise("Thanks! Your order shipped. Someone from billing will call you about the refund."));
    }

    #[test]
    fn an_empty_message_is_clear_and_of_unknown_language() {
        let found = detect("   ");
        assert!(!found.promise);
        assert_eq!(found.language, Language::Unknown);
    }

    #[test]
    fn detection_serialises_with_language_tags() {
        let json = serde_json::to_value(detect("A specialist will reach out.")).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"promise": true, "rule": "en.person_will_follow_up",
                "evidence": "A specialist will reach out", "language": "en"})
        );
    }
}
