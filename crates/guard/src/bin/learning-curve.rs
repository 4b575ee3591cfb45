//! How fast the detector learns from a team's marks: for a source held out of training, recall and
//! false alarms on half of it after 0, 20, 50 and 100 marks drawn from the other half, trained as
//! *Retrain* trains them (`retrain::train_with_marks`, the shipped configuration).
//!
//! The sources are the writers of the blind splits already measured (`blind1/`, `blind2/`), one
//! language at a time: people whose phrasing the model has not read once their split is held
//! out, standing in for a team's own messages. Each source is shuffled once by a hash of its text
//! and halved (the test half never trains); marks are drawn from the other half in three orders,
//! and the figures are the mean of the three (n = 0 is one model).
//!
//! `cargo run -p skillcase-guard --release --bin learning-curve [-- --mark-weight X]` (the
//! shipped weight by default).

use skillcase_guard::corpus::{self, Example};
use skillcase_guard::eval::{measure, measured_split, MEASURED_SPLITS};
use skillcase_guard::retrain::{train_with_marks, Mark};
use skillcase_guard::train::{language_name, Config};
use skillcase_guard::Language;

const MARKS: [usize; 4] = [0, 20, 50, 100];
const DRAWS: u64 = 3;

fn fnv(seed: u64, text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325 ^ seed, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn shuffled(mut rows: Vec<Example>, seed: u64) -> Vec<Example> {
    rows.sort_by_key(|e| fnv(seed, &e.text));
    rows
}

/// The training data without the split `held`: the corpus, the phrase files and the other splits.
fn base_without(held: &str) -> Vec<Example> {
    let mut examples = corpus::corpus();
    examples.extend(corpus::phrases());
    for &other in MEASURED_SPLITS.iter().filter(|&&o| o != held) {
        examples.extend(measured_split(other));
    }
    examples
}

/// Mean (recall, false-alarm rate) on `test` of the models trained with `n` marks from `pool`.
fn point(
    config: &Config,
    (base, pool, test): (&[Example], &[Example], &[Example]),
    language: Language,
    n: usize,
) -> (f64, f64) {
    let draws = if n == 0 { 1 } else { DRAWS };
    let mut sums = (0.0, 0.0);
    for draw in 0..draws {
        let marks: Vec<Mark> = shuffled(pool.to_vec(), 0x5eed + draw)
            .into_iter()
            .take(n)
            .map(|e| Mark { text: e.text, promise: e.promise })
            .collect();
        let model = train_with_marks(base.to_vec(), &marks, config);
        let counts = measure(&model, test, language);
        sums = (sums.0 + counts.recall(), sums.1 + counts.false_alarm_rate());
    }
    (sums.0 / draws as f64, sums.1 / draws as f64)
}

fn main() {
    let started = std::time::Instant::now();
    let mut config = Config::SHIPPED;
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, weight] = args.as_slice() {
        assert_eq!(flag, "--mark-weight", "usage: learning-curve [--mark-weight X]");
        config.mark_weight = weight.parse().expect("--mark-weight takes a number");
    }
    println!("mark weight {}", config.mark_weight);
    println!(
        "source            {}",
        MARKS.map(|n| format!("{n:>4} marks: recall / false alarms")).join("   ")
    );
    let mut curves: Vec<(Language, Vec<(f64, f64)>)> = Vec::new();
    for &split in &MEASURED_SPLITS {
        let base = base_without(split);
        for language in [Language::En, Language::PtBr] {
            let rows: Vec<Example> =
                measured_split(split).into_iter().filter(|e| e.language == language).collect();
            let rows = shuffled(rows, 0);
            let (test, pool) = rows.split_at(rows.len() / 2);
            let points: Vec<(f64, f64)> =
                MARKS.iter().map(|&n| point(&config, (&base, pool, test), language, n)).collect();
            print_row(&format!("{split} {}", language_name(language)), &points);
            curves.push((language, points));
        }
    }
    for language in [Language::En, Language::PtBr] {
        let mine: Vec<&Vec<(f64, f64)>> =
            curves.iter().filter(|(l, _)| *l == language).map(|(_, c)| c).collect();
        print_row(&format!("mean {}", language_name(language)), &mean(&mine));
    }
    print_row("mean", &mean(&curves.iter().map(|(_, c)| c).collect::<Vec<_>>()));
    println!("({:.0} s)", started.elapsed().as_secs_f64());
}

fn mean(curves: &[&Vec<(f64, f64)>]) -> Vec<(f64, f64)> {
    let n = curves.len() as f64;
    (0..MARKS.len())
        .map(|i| {
            let (r, f) = curves.iter().fold((0.0, 0.0), |(r, f), c| (r + c[i].0, f + c[i].1));
            (r / n, f / n)
        })
        .collect()
}

fn print_row(name: &str, points: &[(f64, f64)]) {
    let shown: Vec<String> =
        points.iter().map(|(r, f)| format!("{:>13.1} % / {:>5.1} %", r * 100.0, f * 100.0)).collect();
    println!("{name:<17} {}", shown.join("   "));
}
