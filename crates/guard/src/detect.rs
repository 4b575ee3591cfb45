//! Does a message promise that a person will follow up? (SPEC B5, D1)
//!
//! # The promise contract
//!
//! A message *promises human follow-up* when it commits that a person — named ("a Letícia da
//! contabilidade"), a role ("the site supervisor"), a department ("billing"), the team, someone,
//! "we" as the company — or the assistant itself at a later time will do something for the
//! customer after this message: call, reply, get back, check, review, approve, visit, send
//! something later, decide, take over. Any verb and any form counts: future ("will call"),
//! present for future ("a Letícia te chama amanhã"), passive ("seu pedido vai ser revisto"),
//! conditional on an event that will happen ("quando sair o resultado eu te aviso"), hand-overs
//! ("I'm passing this to our claims team"), informal spelling ("vo ve c/ o pessoal e t falo").
//!
//! Not promises (the hard negatives): what is done in this very message ("vou te mandar o link
//! agora", "let me check your order… it shipped"), offers or questions the customer has not
//! accepted ("quer que eu peça pra um técnico te ligar?"), automated system events ("você vai
//! receber um SMS automático"), what the customer can do, events already done by people,
//! negations ("ninguém vai te ligar"), requests for information, and general answers. A message
//! with a promise anywhere is a promise. (`tests/data/guard/FORMAT.md` has the full contract.)
//!
//! # How it decides
//!
//! The message is normalised (lowercase, accents stripped, chat spellings folded), tokenised and
//! split into sentences. A linear model scores each sentence over hashed word and character
//! n-grams, word-class n-grams and structural features (actor + future or deferral + action
//! toward the customer, with the negation, offer, question, past and machine cues that undo
//! it). The message promises when its best sentence scores at or above the model's threshold;
//! that sentence is the evidence, and its actor, deferral and action are the spans. The weights
//! are trained by `cargo run -p skillcase-guard --release --bin train-guard` (see `MODEL.md`).

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::analysis::{sentence_buckets, with_analysis};
use crate::model::Model;
use crate::normalize::Normalized;
use crate::spans::{explain, Role};

/// The language a message is in.
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

/// What a span says about the promise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardSpanRole")]
#[serde(rename_all = "snake_case")]
pub enum SpanRole {
    /// Who will act: "a Letícia da contabilidade", "our billing team", "I".
    Actor,
    /// What makes it later: "will", "vai", "amanhã", "as soon as", "assim que".
    Deferral,
    /// What they will do: "call you", "te retornar", "review your claim".
    Action,
}

/// A part of the message that decided a promise.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardSpan")]
pub struct Span {
    pub role: SpanRole,
    /// Offset of the first character, counted in Unicode scalar values of the message.
    pub start: usize,
    /// Offset just past the last character, in Unicode scalar values.
    pub end: usize,
    /// The characters `start..end` of the message, as written.
    pub text: String,
}

/// What the detector found in one message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardDetection")]
pub struct Detection {
    /// True when the message promises a human follow-up.
    pub promise: bool,
    /// What decided it: `model` (the sentence model) for a promise, none when clear.
    pub rule: Option<String>,
    /// The sentence that makes the promise, as the agent wrote it.
    pub evidence: Option<String>,
    /// The language of the message.
    pub language: Language,
    /// For a promise: who will act, what makes it later and what they will do, in message order.
    pub spans: Vec<Span>,
    /// The best sentence's score minus the threshold: at or above zero is a promise; the further
    /// from zero, the surer.
    pub score: f32,
}

/// The longest message the guardrail gives the detector, in characters. Within one clause the
/// detector's work grows faster than the clause (each future verb looks for the clause's ends),
/// so this cap is what bounds one check's time; agents' chat messages are far shorter
/// (WhatsApp's own limit is 4,096). Longer messages are refused before a character is read.
pub const MAX_MESSAGE_CHARS: usize = 10_000;

/// The shipped model, embedded in the binary.
static MODEL_BYTES: &[u8] = include_bytes!("../model/guard.bin");

static MODEL: LazyLock<Model> =
    LazyLock::new(|| Model::from_bytes(MODEL_BYTES).expect("the embedded guard model is valid"));

/// The bytes of the shipped model, as embedded (`model/guard.bin`).
pub fn model_bytes() -> &'static [u8] {
    MODEL_BYTES
}

/// The shipped model (loads it on first use).
pub fn model() -> &'static Model {
    &MODEL
}

/// Looks for a promise of a human follow-up in `message`, with the shipped model.
pub fn detect(message: &str) -> Detection {
    detect_with(&MODEL, message)
}

/// Looks for a promise of a human follow-up in `message` with `model`.
pub fn detect_with(model: &Model, message: &str) -> Detection {
    with_analysis(message, |norm, guessed, tokens, sentences| {
        let language = guessed.unwrap_or(Language::Unknown);
        let buckets = sentence_buckets(tokens, sentences, model.set, model.bits, false);
        let best = buckets.iter().enumerate().map(|(i, b)| (i, model.score(b))).fold(
            None,
            |best: Option<(usize, f32)>, (i, s)| match best {
                Some((_, top)) if top >= s => best,
                _ => Some((i, s)),
            },
        );
        let threshold = model.threshold(language);
        let Some((index, score)) = best else {
            return Detection {
                promise: false,
                rule: None,
                evidence: None,
                language,
                spans: Vec::new(),
                score: -threshold,
            };
        };
        let margin = score - threshold;
        if margin < 0.0 {
            return Detection {
                promise: false,
                rule: None,
                evidence: None,
                language,
                spans: Vec::new(),
                score: margin,
            };
        }
        let (from, to) = sentences[index];
        let sentence = &tokens[from..to];
        let evidence_start = norm.origin_start(sentence[0].start);
        let evidence_end = norm.origin_end(sentence[sentence.len() - 1].end - 1);
        let spans = explain(tokens, from, to, guessed.unwrap_or(Language::En))
            .into_iter()
            .map(|found| span(message, norm, found.role, found.start, found.end))
            .collect();
        Detection {
            promise: true,
            rule: Some("model".to_string()),
            evidence: Some(message[evidence_start..evidence_end].trim().to_string()),
            language,
            spans,
            score: margin,
        }
    })
}

fn span(message: &str, norm: &Normalized, role: Role, start: usize, end: usize) -> Span {
    let from = norm.origin_start(start);
    let to = norm.origin_end(end - 1);
    let start = message[..from].chars().count();
    let text = message[from..to].to_string();
    let end = start + text.chars().count();
    let role = match role {
        Role::Actor => SpanRole::Actor,
        Role::Deferral => SpanRole::Deferral,
        Role::Action => SpanRole::Action,
    };
    Span { role, start, end, text }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn promise(message: &str) -> bool {
        detect(message).promise
    }

    fn spans_of(message: &str, role: SpanRole) -> Vec<String> {
        detect(message).spans.into_iter().filter(|s| s.role == role).map(|s| s.text).collect()
    }

    #[test]
    fn a_promise_reports_the_model_its_sentence_as_written_and_its_language() {
        let found = detect("Obrigado pela paciência! Vou verificar com a Equipe e te retorno.");
        assert!(found.promise);
        assert_eq!(found.rule.as_deref(), Some("model"));
        assert_eq!(found.evidence.as_deref(), Some("Vou verificar com a Equipe e te retorno."));
        assert_eq!(found.language, Language::PtBr);
        assert!(found.score >= 0.0);
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
        assert!(found.spans.is_empty());
        assert!(found.score < 0.0);
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
    fn the_evidence_is_the_promising_sentence_not_the_whole_message() {
        let found =
            detect("Your order shipped on Monday. Someone from billing will call you tomorrow. Thanks!");
        assert_eq!(found.evidence.as_deref(), Some("Someone from billing will call you tomorrow."));
    }

    #[test]
    fn spans_name_the_actor_the_deferral_and_the_action() {
        let message = "Someone from billing will call you tomorrow.";
        assert_eq!(spans_of(message, SpanRole::Actor), ["Someone from billing"]);
        assert_eq!(spans_of(message, SpanRole::Deferral), ["will", "tomorrow"]);
        assert_eq!(spans_of(message, SpanRole::Action), ["call you"]);
    }

    #[test]
    fn the_assistant_promising_splits_i_will_into_actor_and_deferral() {
        let message = "I'll get back to you by Friday.";
        assert_eq!(spans_of(message, SpanRole::Actor), ["I"]);
        assert!(spans_of(message, SpanRole::Deferral).contains(&"'ll".to_string()));
    }

    #[test]
    fn span_offsets_count_characters_not_bytes() {
        let message = "Olá, Márcia! A Letícia da contabilidade vai te ligar amanhã.";
        let found = detect(message);
        assert!(found.promise);
        let chars: Vec<char> = message.chars().collect();
        for span in &found.spans {
            assert_eq!(chars[span.start..span.end].iter().collect::<String>(), span.text);
        }
        assert_eq!(spans_of(message, SpanRole::Actor), ["A Letícia da contabilidade"]);
    }

    #[test]
    fn a_follow_up_conditional_on_an_event_that_will_happen_is_a_promise() {
        assert!(promise("quando sair o resultado eu te aviso"));
        assert!(promise("as soon as I hear back I'll let you know"));
    }

    #[test]
    fn informal_spelling_still_promises() {
        assert!(promise("vo ve c/ o pessoal e t falo"));
        assert!(promise("will get back 2 u later"));
    }

    #[test]
    fn hand_overs_are_promises() {
        assert!(promise("I'm passing this to our claims team."));
        assert!(promise("vou encaminhar pro responsável"));
        assert!(promise("I've escalated it, they'll contact you."));
    }

    #[test]
    fn a_passive_follow_up_and_a_present_for_the_future_are_promises() {
        assert!(promise("seu pedido vai ser revisto e você recebe a resposta por e-mail"));
        assert!(promise("a Letícia te chama amanhã cedo"));
        assert!(promise("we are on it and will let you know"));
    }

    #[test]
    fn what_is_done_in_this_very_message_is_clear() {
        assert!(!promise("here is the link"));
        assert!(!promise("vou te mandar o link agora"));
        assert!(!promise("I'm sending the tracking number now: 123"));
        assert!(!promise("já te passo aqui o valor: R$ 50"));
        assert!(!promise("let me check your order status… it shipped yesterday"));
    }

    #[test]
    fn an_offer_phrased_as_a_question_or_a_condition_is_clear() {
        assert!(!promise("quer que eu peça pra um técnico te ligar?"));
        assert!(!promise("if you want, I can ask billing to call you"));
    }

    #[test]
    fn automated_system_events_are_clear() {
        assert!(!promise("an automatic renewal reminder goes out a week before"));
        assert!(!promise("você vai receber um SMS automático com o código"));
        assert!(!promise("the system emails a receipt once payment clears"));
    }

    #[test]
    fn what_the_customer_can_do_is_clear() {
        assert!(!promise("você pode agendar pelo site"));
        assert!(!promise("feel free to reply here if anything else comes up"));
    }

    #[test]
    fn events_already_done_by_people_are_clear() {
        assert!(!promise("our technician visited on Monday"));
        assert!(!promise("a equipe já te ligou ontem"));
        assert!(!promise("the refund was approved by finance this morning"));
    }

    #[test]
    fn saying_no_one_needs_to_act_is_clear() {
        assert!(!promise("no one needs to visit, it is all done online"));
        assert!(!promise("there is no need for anyone to call you"));
    }

    #[test]
    fn asking_for_information_and_general_answers_are_clear() {
        assert!(!promise("me passa o CPF do titular?"));
        assert!(!promise("could you send me your order number?"));
        assert!(!promise("our opening hours are 9 to 6"));
        assert!(!promise("the warranty covers 12 months"));
    }

    #[test]
    fn a_pronoun_actor_is_the_people_named_before_it() {
        let message = "ive passed ur msg to the orthodontist, she'll reply 2nite";
        assert_eq!(spans_of(message, SpanRole::Actor), ["the orthodontist"]);
    }

    #[test]
    fn the_actor_of_a_hand_over_is_who_receives_it() {
        let message = "I'm passing this to our claims team.";
        assert_eq!(spans_of(message, SpanRole::Actor), ["our claims team"]);
        assert_eq!(spans_of(message, SpanRole::Action), ["passing this"]);
    }

    #[test]
    fn the_actor_of_a_passive_is_its_agent() {
        let message = "Your claim will be assessed by an underwriter within 5 days.";
        assert_eq!(spans_of(message, SpanRole::Actor), ["an underwriter"]);
        assert!(spans_of(message, SpanRole::Deferral).contains(&"within 5 days".to_string()));
    }

    #[test]
    fn a_lowercase_chat_name_heads_its_actor() {
        let message = "ok so priya from billing is gonna text u later today about the roaming charge";
        assert_eq!(spans_of(message, SpanRole::Actor), ["priya from billing"]);
        assert_eq!(spans_of(message, SpanRole::Action), ["text u"]);
    }

    #[test]
    fn detection_serialises_with_language_tags_and_spans() {
        let json = serde_json::to_value(detect("A specialist will reach out.")).unwrap();
        assert_eq!(json["promise"], true);
        assert_eq!(json["rule"], "model");
        assert_eq!(json["evidence"], "A specialist will reach out.");
        assert_eq!(json["language"], "en");
        assert_eq!(
            json["spans"][0],
            serde_json::json!({"role": "actor", "start": 0, "end": 12, "text": "A specialist"})
        );
    }
}
