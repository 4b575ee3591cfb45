//! Retraining with a team's marks: the people who read the agent's messages know which of them
//! promised a follow-up and which did not, and the detector learns from what they mark.
//!
//! A retrain is the shipped training ([`Config::SHIPPED`] on [`crate::base`]) plus the marks,
//! so it is deterministic: the same marks give the same model to the bit, and no marks give the
//! shipped model. A quarter of the marks (chosen by a hash of their text, so a mark stays on its
//! side as more arrive) are held out of training to measure the new model on the team's own
//! messages. The new model is adopted only if it does not regress: it makes no more mistakes
//! (missed promises plus false alarms) than the model in use on the blind split, in either
//! language, nor on the held-out marks.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::corpus::Example;
use crate::detect::{detect_with, Language};
use crate::eval::Counts;
use crate::model::Model;
use crate::train::{train_on, Config, Data};

/// A person's verdict on a message an agent wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// The message as the agent wrote it.
    pub text: String,
    /// True: "this promised a follow-up"; false: "not a promise".
    pub promise: bool,
}

/// The `kind` of a training example that is a team's mark.
pub const MARK_KIND: &str = "mark";

/// A confusion matrix, as the window shows it.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardCounts")]
pub struct Figures {
    pub promises: u32,
    /// Promises the model called promises.
    pub caught: u32,
    pub clear: u32,
    /// Clear messages the model called promises.
    pub false_alarms: u32,
}

impl Figures {
    fn of(counts: Counts) -> Figures {
        let n = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        Figures {
            promises: n(counts.promises()),
            caught: n(counts.true_pos),
            clear: n(counts.clear()),
            false_alarms: n(counts.false_pos),
        }
    }

    /// Promises caught, 1 when there were none.
    pub fn recall(&self) -> f64 {
        if self.promises == 0 {
            1.0
        } else {
            f64::from(self.caught) / f64::from(self.promises)
        }
    }

    /// Clear messages called promises, 0 when there were none.
    pub fn false_alarm_rate(&self) -> f64 {
        if self.clear == 0 {
            0.0
        } else {
            f64::from(self.false_alarms) / f64::from(self.clear)
        }
    }

    /// Wrong verdicts.
    pub fn mistakes(&self) -> u32 {
        self.promises - self.caught + self.false_alarms
    }
}

/// One model's figures in a retrain report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardModelFigures")]
pub struct ModelFigures {
    pub blind_en: Figures,
    pub blind_pt_br: Figures,
    /// The held-out marks (none trained on by either model in the report).
    pub held_out_marks: Figures,
}

/// Why a retrained model was not adopted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardRetrainRefusal")]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Refusal {
    /// More mistakes on the blind split of `language` than the model in use.
    BlindMistakes { language: Language, before: u32, after: u32 },
    /// More mistakes on the held-out marks than the model in use.
    HeldOutMarks { before: u32, after: u32 },
}

/// What a retrain did: the model in use and the new one, side by side, and the verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardRetrainReport")]
pub struct Report {
    /// Marks given.
    pub marks: u32,
    /// Marks trained on.
    pub trained_on: u32,
    /// Marks held out to measure both models.
    pub held_out: u32,
    pub before: ModelFigures,
    pub after: ModelFigures,
    /// True when the new model replaces the one in use.
    pub adopted: bool,
    /// Why not, when not adopted.
    pub refusals: Vec<Refusal>,
}

/// A retrained model and its report.
#[derive(Debug, Clone)]
pub struct Retrained {
    pub model: Model,
    pub report: Report,
}

/// Whether a mark is held out of training: a quarter of the marks, by a hash of their text.
pub fn held_out(mark: &Mark) -> bool {
    fnv1a(mark.text.trim().as_bytes()) % 4 == 0
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Retrains on the shipped data plus `marks` and measures the new model against `current` (the
/// model in use). Takes seconds: run it off any thread that must stay responsive.
pub fn retrain(current: &Model, marks: &[Mark]) -> Retrained {
    let (held, trained): (Vec<&Mark>, Vec<&Mark>) = marks.iter().partition(|m| held_out(m));
    let trained: Vec<Mark> = trained.into_iter().cloned().collect();
    let model = train_with_marks(crate::base::training_examples(), &trained, &Config::SHIPPED);
    let blind = crate::base::blind_examples();
    let before = figures(current, &blind, &held);
    let after = figures(&model, &blind, &held);
    let refusals = refusals(&before, &after);
    let report = Report {
        marks: count(marks.len()),
        trained_on: count(trained.len()),
        held_out: count(held.len()),
        before,
        after,
        adopted: refusals.is_empty(),
        refusals,
    };
    Retrained { model, report }
}

/// The model `config` trains on `base` plus `marks` (what [`retrain`] does with the shipped
/// data, and the learning-curve simulation with a source held out of it).
pub fn train_with_marks(base: Vec<Example>, marks: &[Mark], config: &Config) -> Model {
    let mut examples = base;
    examples.extend(marks.iter().map(example));
    let data = Data::new(examples, config.set, config.bits);
    let all: Vec<usize> = (0..data.examples.len()).collect();
    train_on(&data, &all, config)
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A mark as a training message: no domain (it trains every threshold fold and is never scored
/// for the threshold, like the phrase files) and the [`MARK_KIND`] kind, which
/// [`Config::mark_weight`] weighs.
fn example(mark: &Mark) -> Example {
    Example {
        promise: mark.promise,
        language: detect_with(crate::detect::model(), &mark.text).language,
        domain: String::new(),
        register: String::new(),
        kind: MARK_KIND.to_string(),
        text: mark.text.clone(),
        actor: String::new(),
        due: String::new(),
    }
}

fn figures(model: &Model, blind: &[Example], held: &[&Mark]) -> ModelFigures {
    let on_blind = |language: Language| Figures::of(crate::eval::measure(model, blind, language));
    let mut marks = Counts::default();
    for mark in held {
        marks.add(mark.promise, detect_with(model, &mark.text).promise);
    }
    ModelFigures {
        blind_en: on_blind(Language::En),
        blind_pt_br: on_blind(Language::PtBr),
        held_out_marks: Figures::of(marks),
    }
}

fn refusals(before: &ModelFigures, after: &ModelFigures) -> Vec<Refusal> {
    let blind = [
        (Language::En, &before.blind_en, &after.blind_en),
        (Language::PtBr, &before.blind_pt_br, &after.blind_pt_br),
    ];
    let mut out: Vec<Refusal> = blind
        .into_iter()
        .filter(|(_, was, now)| now.mistakes() > was.mistakes())
        .map(|(language, was, now)| Refusal::BlindMistakes {
            language,
            before: was.mistakes(),
            after: now.mistakes(),
        })
        .collect();
    let (was, now) = (before.held_out_marks.mistakes(), after.held_out_marks.mistakes());
    if now > was {
        out.push(Refusal::HeldOutMarks { before: was, after: now });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(text: &str, promise: bool) -> Mark {
        Mark { text: text.into(), promise }
    }

    #[test]
    fn retraining_without_marks_gives_the_shipped_model_to_the_bit() {
        let retrained = retrain(crate::detect::model(), &[]);
        assert_eq!(retrained.model.to_bytes(), crate::detect::model_bytes());
        assert_eq!(retrained.report.before, retrained.report.after);
        assert!(retrained.report.adopted, "{:?}", retrained.report.refusals);
    }

    #[test]
    fn a_false_alarm_marked_not_a_promise_is_clear_after_retraining() {
        let text = "O estorno constará em fatura em até 3 dias úteis.";
        assert!(detect_with(crate::detect::model(), text).promise, "the shipped model's false alarm");
        let retrained = retrain(crate::detect::model(), &[mark(text, false)]);
        assert!(!detect_with(&retrained.model, text).promise);
        assert!(retrained.report.adopted, "{:?}", retrained.report.refusals);
    }

    #[test]
    fn a_mark_stays_held_out_or_trained_whatever_else_is_marked() {
        let marks: Vec<Mark> = (0..40).map(|i| mark(&format!("message {i}"), i % 2 == 0)).collect();
        let held: Vec<bool> = marks.iter().map(held_out).collect();
        assert!(held.iter().any(|h| *h) && held.iter().any(|h| !*h), "{held:?}");
        assert_eq!(held_out(&mark("message 7", true)), held[7]);
    }

    #[test]
    fn more_mistakes_on_the_held_out_marks_refuse_the_new_model() {
        let good = Figures { promises: 4, caught: 4, clear: 4, false_alarms: 0 };
        let blind = Figures { promises: 260, caught: 255, clear: 260, false_alarms: 3 };
        let before = ModelFigures { blind_en: blind, blind_pt_br: blind, held_out_marks: good };
        let after = ModelFigures { held_out_marks: Figures { caught: 3, ..good }, ..before };
        assert_eq!(refusals(&before, &before), vec![]);
        assert_eq!(refusals(&before, &after), vec![Refusal::HeldOutMarks { before: 0, after: 1 }]);
    }

    #[test]
    fn more_mistakes_on_either_blind_split_refuse_the_new_model_whatever_their_kind() {
        let marks = Figures::default();
        let fine = Figures { promises: 260, caught: 251, clear: 260, false_alarms: 4 };
        let traded = Figures { promises: 260, caught: 254, clear: 260, false_alarms: 6 };
        let worse = Figures { promises: 260, caught: 252, clear: 260, false_alarms: 6 };
        let before = ModelFigures { blind_en: fine, blind_pt_br: fine, held_out_marks: marks };
        let after = ModelFigures { blind_en: traded, blind_pt_br: worse, held_out_marks: marks };
        assert_eq!(
            refusals(&before, &after),
            vec![Refusal::BlindMistakes { language: Language::PtBr, before: 13, after: 14 }]
        );
    }
}
