//! The detector's measured figures, pinned so that a regression fails the build. What each
//! split is, and how the figures were measured, is in `crates/guard/MODEL.md`; the command that
//! prints them is `cargo run -p skillcase-guard --release --bin eval-guard`.
//!
//! Recall floors are the measured recall rounded down; false-alarm ceilings are the measured
//! number of false alarms (a rate can only hold if the count does).

use skillcase_guard::corpus;
use skillcase_guard::eval::{self, Counts};
use skillcase_guard::Language;

/// A pinned figure: (recall floor, most false alarms allowed).
type Pin = (f64, usize);

/// The current blind split (`tests/data/guard/blind3/`, 520 messages per language, written by
/// people who saw neither the training data nor the detector), measured once with the frozen
/// detector: `None` until it is committed and measured (`eval-guard --blind-only`); then its
/// figures, `Some([(en recall floor, en false alarms), (pt-BR recall floor, pt-BR false alarms)])`.
const BLIND: Option<[(f64, usize); 2]> = Some([(0.965, 4), (0.969, 5)]);

/// Cross-writer, per blind split already measured (now training data): the shipped
/// configuration trained without that split and measured on it, as `(split, en, pt-BR)`.
const CROSS_WRITER: [(&str, Pin, Pin); 2] =
    [("blind1", (0.976, 2), (0.992, 8)), ("blind2", (0.957, 8), (0.953, 4))];

/// Leave-one-domain-out over the corpus and the measured blind splits, per language: (recall
/// floor, most false alarms out of 1,600 clear rows).
const LODO_EN: (f64, usize) = (0.983, 16);
const LODO_PT: (f64, usize) = (0.983, 21);

fn check(name: &str, counts: &Counts, (recall, false_alarms): Pin) {
    println!(
        "{name}: recall {:.4} ({}/{}), false alarms {:.4} ({}/{})",
        counts.recall(),
        counts.true_pos,
        counts.promises(),
        counts.false_alarm_rate(),
        counts.false_pos,
        counts.clear()
    );
    assert!(counts.recall() >= recall, "{name}: recall {:.4} < {recall}", counts.recall());
    assert!(counts.false_pos <= false_alarms, "{name}: {} false alarms > {false_alarms}", counts.false_pos);
}

#[test]
fn the_corpus_has_2160_messages_per_language_half_promises_over_30_domains() {
    let rows = corpus::corpus();
    for language in [Language::En, Language::PtBr] {
        let mine: Vec<_> = rows.iter().filter(|r| r.language == language).collect();
        let promises = mine.iter().filter(|r| r.promise).count();
        let mut domains: Vec<&str> = mine.iter().map(|r| r.domain.as_str()).collect();
        domains.sort_unstable();
        domains.dedup();
        assert_eq!((mine.len(), promises, domains.len()), (2160, 1080, 30), "{language:?}");
    }
}

#[test]
fn leave_one_domain_out_stays_at_its_measured_figures() {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(2);
    let [en, pt] = eval::shipped_leave_one_domain_out(threads);
    check("en leave-one-domain-out", &en.pooled, LODO_EN);
    check("pt-BR leave-one-domain-out", &pt.pooled, LODO_PT);
}

#[test]
fn the_blind_split_stays_at_its_one_measurement() {
    let dir = eval::BLIND_DIR;
    if eval::blind_examples().is_none() {
        println!("skipped: tests/data/guard/{dir}/ is not committed yet");
        return;
    }
    let Some([en, pt]) = BLIND else {
        // Not measured here: the one measurement is eval-guard's, and its figures go in BLIND.
        println!("skipped: tests/data/guard/{dir}/ is committed but its figures are not pinned yet");
        return;
    };
    let blind = eval::blind_examples().expect("checked above");
    let model = skillcase_guard::model();
    check("en blind", &eval::measure(model, &blind, Language::En), en);
    check("pt-BR blind", &eval::measure(model, &blind, Language::PtBr), pt);
}

#[test]
fn each_measured_blind_split_held_out_stays_at_its_cross_writer_figures() {
    let measured = eval::cross_writer(&skillcase_guard::train::Config::SHIPPED);
    assert_eq!(measured.len(), CROSS_WRITER.len());
    for ((split, [en, pt]), (pinned, en_pin, pt_pin)) in measured.iter().zip(CROSS_WRITER) {
        assert_eq!(*split, pinned);
        check(&format!("en {split} held out"), en, en_pin);
        check(&format!("pt-BR {split} held out"), pt, pt_pin);
    }
}
