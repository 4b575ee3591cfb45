//! Measuring the detector: leave-one-domain-out over the corpus, the cross-writer split, the
//! blind split, and how often the actor span agrees with the annotation. Shared by `eval-guard`
//! and the tests that pin the figures.

use std::collections::BTreeMap;

use crate::corpus::Example;
use crate::detect::{detect_with, Language, SpanRole};
use crate::model::Model;
use crate::train::{model_score, train_on, Config, Data};

/// A confusion matrix.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub true_pos: usize,
    pub false_neg: usize,
    pub false_pos: usize,
    pub true_neg: usize,
}

impl Counts {
    pub fn add(&mut self, promise: bool, said: bool) {
        match (promise, said) {
            (true, true) => self.true_pos += 1,
            (true, false) => self.false_neg += 1,
            (false, true) => self.false_pos += 1,
            (false, false) => self.true_neg += 1,
        }
    }

    /// Promises caught.
    pub fn recall(&self) -> f64 {
        self.true_pos as f64 / (self.true_pos + self.false_neg).max(1) as f64
    }

    /// Clear messages called promises.
    pub fn false_alarm_rate(&self) -> f64 {
        self.false_pos as f64 / (self.false_pos + self.true_neg).max(1) as f64
    }

    pub fn promises(&self) -> usize {
        self.true_pos + self.false_neg
    }

    pub fn clear(&self) -> usize {
        self.false_pos + self.true_neg
    }
}

/// One held-out message: which example, its score and the threshold of the model that scored it.
#[derive(Debug, Clone, Copy)]
pub struct Scored {
    pub example: usize,
    pub score: f32,
    pub threshold: f32,
}

impl Scored {
    pub fn said_promise(&self) -> bool {
        self.score >= self.threshold
    }
}

/// How to split the corpus for a held-out measurement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// Each of the 30 domains in turn, trained and thresholded on the other 29.
    LeaveOneDomainOut,
    /// The first 15 domains of each corpus file (one writer's) against the last 15 (the other's),
    /// both ways: a harder, cross-writer estimate with half the training data.
    Halves,
}

/// The held-out scores of a split: for each fold, its name and its messages.
pub struct HeldOut {
    pub folds: Vec<(String, Vec<Scored>)>,
}

/// Runs `split` over `data` (corpus rows have a domain; rows without one, the phrase files,
/// always train) on `threads` threads.
pub fn held_out(data: &Data, config: &Config, split: Split, threads: usize) -> HeldOut {
    let mut in_order: Vec<&str> = Vec::new();
    for e in &data.examples {
        if !e.domain.is_empty() && !in_order.contains(&e.domain.as_str()) {
            in_order.push(&e.domain);
        }
    }
    let mut domains = in_order.clone();
    domains.sort_unstable();
    let group_of = |domain: &str| -> Option<usize> {
        if domain.is_empty() {
            return None;
        }
        match split {
            Split::Halves => {
                Some(usize::from(in_order.iter().position(|d| *d == domain)? >= in_order.len() / 2))
            }
            Split::LeaveOneDomainOut => domains.iter().position(|d| *d == domain),
        }
    };
    let names: Vec<String> = match split {
        Split::Halves => vec!["first half of the domains".into(), "second half of the domains".into()],
        Split::LeaveOneDomainOut => domains.iter().map(|d| d.to_string()).collect(),
    };
    let run = |fold: usize| -> Vec<Scored> {
        let members: Vec<usize> =
            (0..data.examples.len()).filter(|&m| group_of(&data.examples[m].domain) != Some(fold)).collect();
        let model = train_on(data, &members, config);
        (0..data.examples.len())
            .filter(|&m| group_of(&data.examples[m].domain) == Some(fold))
            .map(|m| Scored {
                example: m,
                score: model_score(&model, &data.prepared[m]),
                threshold: model.threshold(data.examples[m].language),
            })
            .collect()
    };
    let threads = threads.max(1);
    let mut results: Vec<Vec<Scored>> = vec![Vec::new(); names.len()];
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let run = &run;
                let count = names.len();
                scope.spawn(move || (t..count).step_by(threads).map(|f| (f, run(f))).collect::<Vec<_>>())
            })
            .collect();
        for handle in handles {
            for (fold, scored) in handle.join().expect("a fold panicked") {
                results[fold] = scored;
            }
        }
    });
    HeldOut { folds: names.into_iter().zip(results).collect() }
}

/// The figures of one language on a held-out split.
#[derive(Debug, Clone)]
pub struct Report {
    pub pooled: Counts,
    /// The fold with the lowest recall, and it.
    pub worst_recall: (String, f64),
    /// The fold with the highest false-alarm rate, and it.
    pub worst_false_alarms: (String, f64),
    pub per_fold: BTreeMap<String, Counts>,
}

/// Pools the held-out verdicts of `language`.
pub fn report(data: &Data, held: &HeldOut, language: Language) -> Report {
    let mut pooled = Counts::default();
    let mut per_fold = BTreeMap::new();
    for (name, scored) in &held.folds {
        let mut counts = Counts::default();
        for s in scored.iter().filter(|s| data.examples[s.example].language == language) {
            counts.add(data.examples[s.example].promise, s.said_promise());
        }
        pooled.true_pos += counts.true_pos;
        pooled.false_neg += counts.false_neg;
        pooled.false_pos += counts.false_pos;
        pooled.true_neg += counts.true_neg;
        per_fold.insert(name.clone(), counts);
    }
    let worst_recall = per_fold
        .iter()
        .min_by(|a, b| a.1.recall().total_cmp(&b.1.recall()))
        .map(|(n, c)| (n.clone(), c.recall()))
        .unwrap_or_default();
    let worst_false_alarms = per_fold
        .iter()
        .max_by(|a, b| a.1.false_alarm_rate().total_cmp(&b.1.false_alarm_rate()))
        .map(|(n, c)| (n.clone(), c.false_alarm_rate()))
        .unwrap_or_default();
    Report { pooled, worst_recall, worst_false_alarms, per_fold }
}

/// The leave-one-domain-out figures of the shipped configuration on the repository's data,
/// English then Portuguese.
pub fn shipped_leave_one_domain_out(threads: usize) -> [Report; 2] {
    let config = Config::SHIPPED;
    let data = Data::new(crate::train::training_examples(), config.set, config.bits);
    let held = held_out(&data, &config, Split::LeaveOneDomainOut, threads);
    [report(&data, &held, Language::En), report(&data, &held, Language::PtBr)]
}

/// The verdicts of `model` on `examples` of `language`.
pub fn measure(model: &Model, examples: &[Example], language: Language) -> Counts {
    let mut counts = Counts::default();
    for e in examples.iter().filter(|e| e.language == language) {
        counts.add(e.promise, detect_with(model, &e.text).promise);
    }
    counts
}

/// The folder of the current blind split, under `tests/data/guard/`: written by people who saw
/// neither the training data nor the detector, committed after the detector is frozen, measured
/// once.
pub const BLIND_DIR: &str = "blind3";

/// The earlier blind splits, under `tests/data/guard/`, oldest first: each was measured once,
/// blind (figures in its README), then became training data. Each came from writers who had
/// seen none of the other files, so training without one and testing on it measures how the
/// detector carries over to people it has never read ([`cross_writer`]).
pub const MEASURED_SPLITS: [&str; 2] = ["blind1", "blind2"];

/// The labelled `*.tsv` files of `tests/data/guard/<name>/` in name order, or `None` when the
/// folder does not exist.
pub fn split_examples(name: &str) -> Option<Vec<Example>> {
    let dir = crate::corpus::data_dir().join(name);
    if !dir.is_dir() {
        return None;
    }
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .collect();
    paths.sort();
    Some(paths.iter().flat_map(|p| crate::corpus::load_labelled(p)).collect())
}

/// The current blind split ([`BLIND_DIR`]), or `None` while it is not committed yet.
pub fn blind_examples() -> Option<Vec<Example>> {
    split_examples(BLIND_DIR)
}

/// One of the [`MEASURED_SPLITS`]; they are part of the repository, so a missing one panics.
pub fn measured_split(name: &str) -> Vec<Example> {
    split_examples(name).unwrap_or_else(|| panic!("tests/data/guard/{name}/ is missing"))
}

/// Cross-writer figures: for each of the [`MEASURED_SPLITS`], `config` trained on every other
/// training file and measured on that split, English then Portuguese.
pub fn cross_writer(config: &Config) -> Vec<(&'static str, [Counts; 2])> {
    MEASURED_SPLITS
        .iter()
        .map(|&held| {
            let mut examples = crate::corpus::corpus();
            examples.extend(crate::corpus::phrases());
            for &other in MEASURED_SPLITS.iter().filter(|&&o| o != held) {
                examples.extend(measured_split(other));
            }
            let data = Data::new(examples, config.set, config.bits);
            let all: Vec<usize> = (0..data.examples.len()).collect();
            let model = train_on(&data, &all, config);
            let test = measured_split(held);
            (held, [measure(&model, &test, Language::En), measure(&model, &test, Language::PtBr)])
        })
        .collect()
}

/// How the actor span of detected promises compares with the annotated `actor` column.
#[derive(Debug, Default, Clone, Copy)]
pub struct ActorAgreement {
    pub promises: usize,
    pub detected: usize,
    /// Our actor text is the annotated one, character for character (both empty counts).
    pub exact: usize,
    /// The same ignoring case and surrounding spaces.
    pub folded: usize,
    /// Our actor span overlaps the annotated one (or both are empty).
    pub overlapping: usize,
}

impl ActorAgreement {
    pub fn rate(&self, n: usize) -> f64 {
        n as f64 / self.detected.max(1) as f64
    }
}

/// The actor agreement of `model` on the promises of `examples` in `language`; `show` prints
/// the disagreements.
pub fn actor_agreement(
    model: &Model,
    examples: &[Example],
    language: Language,
    show: bool,
) -> ActorAgreement {
    let mut out = ActorAgreement::default();
    for e in examples.iter().filter(|e| e.promise && e.language == language) {
        out.promises += 1;
        let found = detect_with(model, &e.text);
        if !found.promise {
            continue;
        }
        out.detected += 1;
        let actor = found.spans.iter().find(|s| s.role == SpanRole::Actor);
        let ours = actor.map_or("", |s| s.text.as_str());
        let exact = ours == e.actor;
        let folded = ours.trim().to_lowercase() == e.actor.trim().to_lowercase();
        let annotated_at = e.text.find(&e.actor).map(|b| e.text[..b].chars().count());
        let overlapping = match (actor, annotated_at) {
            (None, _) => e.actor.is_empty(),
            (Some(s), Some(a)) if !e.actor.is_empty() => s.start < a + e.actor.chars().count() && a < s.end,
            _ => false,
        };
        out.exact += usize::from(exact);
        out.folded += usize::from(folded);
        out.overlapping += usize::from(overlapping || folded);
        if show && !folded {
            println!(
                "  actor [{}] ours={ours:?} annotated={:?}  {}",
                e.kind,
                e.actor,
                e.text.replace('\n', "\\n")
            );
        }
    }
    out
}

/// Recall when the threshold is moved so that at most 2 % of clear messages alarm, and the false
/// alarm rate when it is moved so that at least 97 % of promises are caught, over held-out
/// margins (score minus the fold's threshold): a view of a split that does not depend on where
/// each fold's threshold fell.
pub fn operating_points(data: &Data, held: &HeldOut, language: Language) -> (f64, f64) {
    let mut positives = Vec::new();
    let mut negatives = Vec::new();
    for (_, scored) in &held.folds {
        for s in scored.iter().filter(|s| data.examples[s.example].language == language) {
            let margin = s.score - s.threshold;
            if data.examples[s.example].promise {
                positives.push(margin);
            } else {
                negatives.push(margin);
            }
        }
    }
    if positives.is_empty() || negatives.is_empty() {
        return (0.0, 0.0);
    }
    positives.sort_by(f32::total_cmp);
    negatives.sort_by(f32::total_cmp);
    let allowed = (negatives.len() as f64 * 0.02).floor() as usize;
    let cut = negatives[negatives.len() - 1 - allowed.min(negatives.len() - 1)];
    let recall = positives.iter().filter(|&&p| p > cut).count() as f64 / positives.len() as f64;
    let missed = (positives.len() as f64 * 0.03).floor() as usize;
    let cut = positives[missed.min(positives.len() - 1)];
    let false_alarms = negatives.iter().filter(|&&n| n >= cut).count() as f64 / negatives.len() as f64;
    (recall, false_alarms)
}
