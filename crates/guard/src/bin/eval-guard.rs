//! Measures the promise detector: leave-one-domain-out over the corpus (for each of the 30
//! domains, train and choose the threshold without it, test on it), pooled per language with
//! the worst domain.
//!
//! `cargo run -p skillcase-guard --release --bin eval-guard [-- OPTIONS]`
//!
//! Options (for comparing alternatives; the defaults are the shipped configuration):
//! `--set words,chars,classes,structure`, `--bits N`, `--epochs N`, `--rate X`, `--l2 X`,
//! `--mil N`, `--folds N`, `--cost X`, `--pos X`, `--no-phrases`, `--show` (print the errors),
//! `--threads N`.

use std::collections::BTreeMap;

use skillcase_guard::corpus::Example;
use skillcase_guard::features::FeatureSet;
use skillcase_guard::train::{self, language_name, model_score, Config, Data};
use skillcase_guard::Language;

#[derive(Default, Clone, Copy)]
struct Counts {
    tp: usize,
    fn_: usize,
    fp: usize,
    tn: usize,
}

impl Counts {
    fn add(&mut self, promise: bool, said: bool) {
        match (promise, said) {
            (true, true) => self.tp += 1,
            (true, false) => self.fn_ += 1,
            (false, true) => self.fp += 1,
            (false, false) => self.tn += 1,
        }
    }
    fn recall(&self) -> f64 {
        self.tp as f64 / (self.tp + self.fn_).max(1) as f64
    }
    fn fpr(&self) -> f64 {
        self.fp as f64 / (self.fp + self.tn).max(1) as f64
    }
}

fn main() {
    let mut config = Config::SHIPPED;
    let mut phrases = true;
    let mut show = false;
    let mut threads = 1usize;
    let mut halves = false;
    let mut spans = false;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{arg} needs a value")).clone();
        match arg.as_str() {
            "--set" => {
                let v = value();
                config.set = FeatureSet {
                    words: v.contains("words"),
                    chars: v.contains("chars"),
                    classes: v.contains("classes"),
                    structure: v.contains("structure"),
                    gated: v.contains("gated"),
                }
            }
            "--bits" => config.bits = value().parse().unwrap(),
            "--epochs" => config.epochs = value().parse().unwrap(),
            "--rate" => config.rate = value().parse().unwrap(),
            "--l2" => config.l2 = value().parse().unwrap(),
            "--mil" => config.mil_rounds = value().parse().unwrap(),
            "--folds" => config.threshold_folds = value().parse().unwrap(),
            "--cost" => config.false_alarm_cost = value().parse().unwrap(),
            "--phrase-weight" => config.phrase_weight = value().parse().unwrap(),
            "--per-language" => config.per_language = true,
            "--seed" => config.seed = value().parse().unwrap(),
            "--dropout" => config.dropout = value().parse().unwrap(),
            "--pos" => config.positive_weight = value().parse().unwrap(),
            "--threads" => threads = value().parse().unwrap(),
            "--no-phrases" => phrases = false,
            "--halves" => halves = true,
            "--spans" => spans = true,
            "--show" => show = true,
            other => panic!("unknown option {other}"),
        }
    }
    eprintln!("{config:?}");
    let mut examples = skillcase_guard::corpus::corpus();
    if phrases {
        examples.extend(skillcase_guard::corpus::phrases());
    }
    if std::env::var("GUARD_RULE_STATS").is_ok() {
        for language in [Language::En, Language::PtBr] {
            let (mut tp, mut fp) = (0, 0);
            for e in examples.iter().filter(|e| e.language == language && !e.domain.is_empty()) {
                if skillcase_guard::features::rule_present_for_future(&e.text) {
                    if e.promise {
                        tp += 1
                    } else {
                        fp += 1;
                        if show {
                            println!("  RULE-FA [{}] {}", e.kind, e.text)
                        }
                    }
                }
            }
            println!("{} present-for-future rule: {tp} promises, {fp} clear", language_name(language));
        }
        return;
    }
    if spans {
        actor_agreement(&examples, show);
        return;
    }
    let started = std::time::Instant::now();
    let data = Data::new(examples, config.set, config.bits);
    // Domains in file order: the first 15 of a file are one writer's, the last 15 the other's.
    let mut in_order: Vec<String> = Vec::new();
    for e in &data.examples {
        if !e.domain.is_empty() && !in_order.contains(&e.domain) {
            in_order.push(e.domain.clone());
        }
    }
    let mut domains = in_order.clone();
    domains.sort();
    let group_of = |domain: &str| -> Option<usize> {
        if domain.is_empty() {
            return None;
        }
        if halves {
            Some(usize::from(in_order.iter().position(|d| d == domain).unwrap() >= 15))
        } else {
            domains.iter().position(|d| d == domain)
        }
    };
    let folds = if halves { 2 } else { domains.len() };
    let fold_name =
        |d: usize| if halves { ["first half", "second half"][d].to_string() } else { domains[d].clone() };

    // (domain index, example index, said promise, score)
    let run_fold = |d: usize| -> Vec<(usize, bool, f32, f32)> {
        let members: Vec<usize> =
            (0..data.examples.len()).filter(|&m| group_of(&data.examples[m].domain) != Some(d)).collect();
        let model = train::train_on(&data, &members, &config);
        (0..data.examples.len())
            .filter(|&m| group_of(&data.examples[m].domain) == Some(d))
            .map(|m| {
                let s = model_score(&model, &data.prepared[m]);
                let t = model.threshold(data.examples[m].language);
                (m, s >= t, s, t)
            })
            .collect()
    };
    let mut results: Vec<Vec<(usize, bool, f32, f32)>> = vec![Vec::new(); folds];
    std::thread::scope(|scope| {
        let chunks: Vec<Vec<usize>> =
            (0..threads).map(|t| (0..folds).filter(|d| d % threads == t).collect()).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| scope.spawn(|| chunk.into_iter().map(|d| (d, run_fold(d))).collect::<Vec<_>>()))
            .collect();
        for h in handles {
            for (d, r) in h.join().unwrap() {
                results[d] = r;
            }
        }
    });

    for language in [Language::En, Language::PtBr] {
        let mut pooled = Counts::default();
        let mut per_domain: BTreeMap<String, Counts> = BTreeMap::new();
        let mut per_kind: BTreeMap<(bool, &str), Counts> = BTreeMap::new();
        let mut errors: Vec<(&Example, f32, f32)> = Vec::new();
        for (d, fold) in results.iter().enumerate() {
            for &(m, said, score, threshold) in fold {
                let e = &data.examples[m];
                if e.language != language {
                    continue;
                }
                pooled.add(e.promise, said);
                per_domain.entry(fold_name(d)).or_default().add(e.promise, said);
                per_kind.entry((e.promise, e.kind.as_str())).or_default().add(e.promise, said);
                if said != e.promise {
                    errors.push((e, score, threshold));
                }
            }
        }
        let worst_recall = per_domain.iter().min_by(|a, b| a.1.recall().total_cmp(&b.1.recall())).unwrap();
        let worst_fpr = per_domain.iter().max_by(|a, b| a.1.fpr().total_cmp(&b.1.fpr())).unwrap();
        println!(
            "{:<6} {} recall {:.4} ({}/{})  FPR {:.4} ({}/{})  worst recall {} {:.4}  worst FPR {} {:.4}",
            language_name(language),
            if halves { "HALVES" } else { "LODO" },
            pooled.recall(),
            pooled.tp,
            pooled.tp + pooled.fn_,
            pooled.fpr(),
            pooled.fp,
            pooled.fp + pooled.tn,
            worst_recall.0,
            worst_recall.1.recall(),
            worst_fpr.0,
            worst_fpr.1.fpr(),
        );
        // Threshold-free view: margins (score minus the fold's threshold) pooled over folds.
        let mut margins: Vec<(f32, bool)> = Vec::new();
        for fold in &results {
            for &(m, _, score, threshold) in fold {
                if data.examples[m].language == language {
                    margins.push((score - threshold, data.examples[m].promise));
                }
            }
        }
        let (at_fpr, at_recall) = operating_points(&margins);
        println!("       recall at FPR<=2%: {at_fpr:.4}   FPR at recall>=97%: {at_recall:.4}");
        let kinds: Vec<String> =
            per_kind.iter().map(|((p, k), c)| format!("{k}:{}", if *p { c.fn_ } else { c.fp })).collect();
        println!("       errors by kind: {}", kinds.join(" "));
        if show {
            for (e, s, t) in errors {
                println!(
                    "  {} {:>6.2}/{:>5.2} [{}/{}/{}] {}",
                    if e.promise { "MISS" } else { "FA  " },
                    s,
                    t,
                    e.domain,
                    e.register,
                    e.kind,
                    e.text.replace('\n', "\\n")
                );
            }
        }
    }
    eprintln!("{:.1} s", started.elapsed().as_secs_f64());
}

/// How often the actor span of a detected promise is the annotated actor, per language.
fn actor_agreement(examples: &[Example], show: bool) {
    for language in [Language::En, Language::PtBr] {
        let (mut rows, mut detected, mut exact, mut folded, mut overlap, mut annotated) = (0, 0, 0, 0, 0, 0);
        for e in examples.iter().filter(|e| e.promise && e.language == language && !e.domain.is_empty()) {
            rows += 1;
            let found = skillcase_guard::detect(&e.text);
            if !found.promise {
                continue;
            }
            detected += 1;
            annotated += usize::from(!e.actor.is_empty());
            let actors: Vec<&skillcase_guard::Span> =
                found.spans.iter().filter(|s| s.role == skillcase_guard::SpanRole::Actor).collect();
            let ours = actors.first().map(|s| s.text.as_str()).unwrap_or("");
            let fold = |s: &str| s.trim().to_lowercase();
            let is_exact = ours == e.actor;
            let is_folded = fold(ours) == fold(&e.actor);
            let start = e.text.find(&e.actor).map(|b| e.text[..b].chars().count());
            let overlaps = match (actors.first(), start) {
                (Some(s), Some(a)) if !e.actor.is_empty() => {
                    let b = a + e.actor.chars().count();
                    s.start < b && a < s.end
                }
                (None, _) => e.actor.is_empty(),
                _ => false,
            };
            exact += usize::from(is_exact);
            folded += usize::from(is_folded);
            overlap += usize::from(overlaps || is_folded);
            if show && !is_folded {
                println!(
                    "  ACTOR [{}] ours={ours:?} annotated={:?}  {}",
                    e.kind,
                    e.actor,
                    e.text.replace('\n', "\\n")
                );
            }
        }
        println!(
            "{:<6} actor spans on {detected} detected promises (of {rows}; {annotated} with an annotated actor): exact {:.3}, same ignoring case {:.3}, overlapping {:.3}",
            language_name(language),
            exact as f64 / detected as f64,
            folded as f64 / detected as f64,
            overlap as f64 / detected as f64,
        );
    }
}

/// Recall when the threshold is moved so that at most 2 % of clear messages alarm, and the false
/// alarm rate when it is moved so that at least 97 % of promises are caught.
fn operating_points(scored: &[(f32, bool)]) -> (f64, f64) {
    let mut positives: Vec<f32> = scored.iter().filter(|s| s.1).map(|s| s.0).collect();
    let mut negatives: Vec<f32> = scored.iter().filter(|s| !s.1).map(|s| s.0).collect();
    positives.sort_by(f32::total_cmp);
    negatives.sort_by(f32::total_cmp);
    // Highest negatives allowed to alarm: 2 %.
    let allowed = (negatives.len() as f64 * 0.02).floor() as usize;
    let cut = negatives[negatives.len() - 1 - allowed];
    let recall = positives.iter().filter(|&&p| p > cut).count() as f64 / positives.len() as f64;
    let missed = (positives.len() as f64 * 0.03).floor() as usize;
    let cut = positives[missed];
    let fpr = negatives.iter().filter(|&&n| n >= cut).count() as f64 / negatives.len() as f64;
    (recall, fpr)
}
