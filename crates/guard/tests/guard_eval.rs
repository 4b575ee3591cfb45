//! The detector's measured figures, pinned so that a regression fails the build. What each
//! split is, and how the figures were measured, is in `crates/guard/MODEL.md`; the command that
//! prints them is `cargo run -p skillcase-guard --release --bin eval-guard`.
//!
//! Recall floors are the measured recall rounded down; false-alarm ceilings are the measured
//! number of false alarms (a rate can only hold if the count does).

use skillcase_guard::corpus;
use skillcase_guard::eval::{self, Counts};
use skillcase_guard::Language;

/// The blind split (`tests/data/guard/blind/`, 260 promises and 260 clear messages per language,
/// written by people who saw neither the corpus nor the detector), measured once with the frozen
/// detector: en recall 0.9731 (253/260), 3 false alarms (0.0115); pt-BR recall 0.9846
/// (256/260), 7 false alarms (0.0269).
const BLIND_EN: (f64, usize) = (0.973, 3);
const BLIND_PT: (f64, usize) = (0.984, 7);

/// Leave-one-domain-out, per language: (recall floor, most false alarms out of 1,080 clear rows).
const LODO_EN: (f64, usize) = (0.988, 10);
const LODO_PT: (f64, usize) = (0.986, 15);

fn check(name: &str, counts: &Counts, (recall, false_alarms): (f64, usize)) {
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
    let blind = eval::blind_examples();
    let model = skillcase_guard::model();
    check("en blind", &eval::measure(model, &blind, Language::En), BLIND_EN);
    check("pt-BR blind", &eval::measure(model, &blind, Language::PtBr), BLIND_PT);
}
