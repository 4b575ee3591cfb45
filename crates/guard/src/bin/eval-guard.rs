//! Measures the promise detector, per language:
//! - leave-one-domain-out over the training data (the corpus and the blind splits already
//!   measured): for each of the 30 domains, train and choose the threshold without it, test on
//!   it; pooled recall and false-alarm rate, and the worst domain;
//! - cross-writer: for each blind split already measured, the configuration trained without it
//!   and measured on it (people the model has never read);
//! - the current blind split (`tests/data/guard/blind3/`) with the shipped model, when it is
//!   committed (a clear message says it is skipped while it is not);
//! - how often the actor span of a detected corpus promise is the annotated actor.
//!
//! `cargo run -p skillcase-guard --release --bin eval-guard [-- OPTIONS]`
//!
//! Options: `--no-blind` (skip the blind split), `--blind-only` (only the blind split: the one
//! measurement of a fresh blind split), `--halves` (also the cross-writer split: first
//! 15 domains against the last 15), `--show` (print every error and actor disagreement),
//! `--threads N` (default 2), and, to measure alternatives to the shipped configuration:
//! `--set words,chars,classes,structure,gated`, `--bits N`, `--epochs N`, `--rate X`, `--l2 X`,
//! `--mil N`, `--folds N`, `--cost X`, `--per-language`, `--dropout X`, `--phrase-weight X`,
//! `--pos X`, `--seed N`, `--no-phrases`.

use skillcase_guard::corpus::Example;
use skillcase_guard::eval::{self, Counts, Split};
use skillcase_guard::features::FeatureSet;
use skillcase_guard::train::{language_name, Config, Data};
use skillcase_guard::Language;

struct Options {
    config: Config,
    phrases: bool,
    blind: bool,
    blind_only: bool,
    halves: bool,
    show: bool,
    threads: usize,
}

fn options() -> Options {
    let mut o = Options {
        config: Config::SHIPPED,
        phrases: true,
        blind: true,
        blind_only: false,
        halves: false,
        show: false,
        threads: 2,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{arg} needs a value")).clone();
        let c = &mut o.config;
        match arg.as_str() {
            "--set" => {
                let v = value();
                c.set = FeatureSet {
                    words: v.contains("words"),
                    chars: v.contains("chars"),
                    classes: v.contains("classes"),
                    structure: v.contains("structure"),
                    gated: v.contains("gated"),
                }
            }
            "--bits" => c.bits = value().parse().expect("--bits N"),
            "--epochs" => c.epochs = value().parse().expect("--epochs N"),
            "--rate" => c.rate = value().parse().expect("--rate X"),
            "--l2" => c.l2 = value().parse().expect("--l2 X"),
            "--mil" => c.mil_rounds = value().parse().expect("--mil N"),
            "--folds" => c.threshold_folds = value().parse().expect("--folds N"),
            "--cost" => c.false_alarm_cost = value().parse().expect("--cost X"),
            "--per-language" => c.per_language = true,
            "--dropout" => c.dropout = value().parse().expect("--dropout X"),
            "--phrase-weight" => c.phrase_weight = value().parse().expect("--phrase-weight X"),
            "--pos" => c.positive_weight = value().parse().expect("--pos X"),
            "--seed" => c.seed = value().parse().expect("--seed N"),
            "--no-phrases" => o.phrases = false,
            "--no-blind" => o.blind = false,
            "--blind-only" => o.blind_only = true,
            "--halves" => o.halves = true,
            "--show" => o.show = true,
            "--threads" => o.threads = value().parse().expect("--threads N"),
            other => panic!("unknown option {other} (see the doc comment of eval-guard)"),
        }
    }
    o
}

fn counts(c: &Counts) -> String {
    format!(
        "recall {:.4} ({}/{})  false alarms {:.4} ({}/{})",
        c.recall(),
        c.true_pos,
        c.promises(),
        c.false_alarm_rate(),
        c.false_pos,
        c.clear()
    )
}

fn held_out(data: &Data, o: &Options, split: Split, title: &str) {
    let held = eval::held_out(data, &o.config, split, o.threads);
    println!("{title}");
    for language in [Language::En, Language::PtBr] {
        let r = eval::report(data, &held, language);
        let (at_2, at_97) = eval::operating_points(data, &held, language);
        println!(
            "  {:<6} {}  worst: recall {:.4} ({}), false alarms {:.4} ({})",
            language_name(language),
            counts(&r.pooled),
            r.worst_recall.1,
            r.worst_recall.0,
            r.worst_false_alarms.1,
            r.worst_false_alarms.0,
        );
        println!("         threshold-free: recall {at_2:.4} at 2 % false alarms, false alarms {at_97:.4} at 97 % recall");
        if o.show {
            for (_, scored) in &held.folds {
                for s in scored {
                    let e: &Example = &data.examples[s.example];
                    if e.language == language && s.said_promise() != e.promise {
                        println!(
                            "    {} {:>6.2}/{:>5.2} [{}/{}/{}] {}",
                            if e.promise { "missed     " } else { "false alarm" },
                            s.score,
                            s.threshold,
                            e.domain,
                            e.register,
                            e.kind,
                            e.text.replace('\n', "\\n")
                        );
                    }
                }
            }
        }
    }
}

fn show_errors(model: &skillcase_guard::model::Model, examples: &[Example], language: Language) {
    for e in examples.iter().filter(|e| e.language == language) {
        let found = skillcase_guard::detect_with(model, &e.text);
        if found.promise != e.promise {
            println!(
                "    {} {:>6.2} [{}/{}/{}] {}",
                if e.promise { "missed     " } else { "false alarm" },
                found.score,
                e.domain,
                e.register,
                e.kind,
                e.text.replace('\n', "\\n")
            );
        }
    }
}

/// The current blind split with the shipped model, or a message saying it is not there yet.
fn blind(o: &Options) {
    let dir = eval::BLIND_DIR;
    let Some(blind) = eval::blind_examples() else {
        println!("blind split: tests/data/guard/{dir}/ is not committed yet: skipped");
        return;
    };
    let model = skillcase_guard::model();
    println!("blind split (tests/data/guard/{dir}, shipped model, {} messages)", blind.len());
    for language in [Language::En, Language::PtBr] {
        println!("  {:<6} {}", language_name(language), counts(&eval::measure(model, &blind, language)));
        if o.show {
            show_errors(model, &blind, language);
        }
    }
}

fn main() {
    let o = options();
    let started = std::time::Instant::now();
    if o.blind_only {
        blind(&o);
        return;
    }
    let mut examples = skillcase_guard::train::training_examples();
    if !o.phrases {
        examples.retain(|e| !e.domain.is_empty());
    }
    let data = Data::new(examples, o.config.set, o.config.bits);
    if o.config != Config::SHIPPED {
        println!("configuration: {:?}", o.config);
    }
    held_out(
        &data,
        &o,
        Split::LeaveOneDomainOut,
        "leave-one-domain-out (corpus and the measured blind splits, 30 domains)",
    );
    if o.halves {
        held_out(
            &data,
            &o,
            Split::Halves,
            "cross-writer halves (corpus, first 15 domains against the last 15)",
        );
    }
    println!("cross-writer (this configuration trained without the split, measured on it)");
    for (split, [en, pt]) in eval::cross_writer(&o.config) {
        println!("  {split:<7}{:<6} {}", language_name(Language::En), counts(&en));
        println!("  {split:<7}{:<6} {}", language_name(Language::PtBr), counts(&pt));
    }
    let model = skillcase_guard::model();
    if o.blind {
        blind(&o);
    }
    let corpus: Vec<Example> = data.examples.iter().filter(|e| !e.domain.is_empty()).cloned().collect();
    println!("actor spans (shipped model, corpus promises it detects, against the annotated actor)");
    for language in [Language::En, Language::PtBr] {
        let a = eval::actor_agreement(model, &corpus, language, o.show);
        println!(
            "  {:<6} exact {:.3}  ignoring case {:.3}  overlapping {:.3}  ({} of {} promises detected)",
            language_name(language),
            a.rate(a.exact),
            a.rate(a.folded),
            a.rate(a.overlapping),
            a.detected,
            a.promises
        );
    }
    eprintln!("{:.1} s", started.elapsed().as_secs_f64());
}
