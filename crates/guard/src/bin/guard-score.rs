//! Prints the detector's verdict, score and spans for each argument (a development aid). Reads
//! `model/guard.bin` at run time, so a freshly trained model is used without rebuilding.
//!
//! `cargo run -p skillcase-guard --release --bin guard-score -- [--sentences] "message" ...`
//!
//! `--sentences` also prints every sentence's score (minus the threshold) and what each feature
//! family adds to it: word n-grams, character n-grams, word classes, structure (a family's
//! part counts the bias and gate features too).

use skillcase_guard::analysis::prepare;
use skillcase_guard::features::FeatureSet;
use skillcase_guard::model::Model;

fn main() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("model/guard.bin");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let model = Model::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut sentences = false;
    for message in std::env::args().skip(1) {
        if message == "--sentences" {
            sentences = true;
            continue;
        }
        let found = skillcase_guard::detect_with(&model, &message);
        println!("{:+.3} {} {message}", found.score, if found.promise { "PROMISE" } else { "clear  " });
        for span in &found.spans {
            println!("        {:?} {}..{} {:?}", span.role, span.start, span.end, span.text);
        }
        if !sentences {
            continue;
        }
        let threshold = model.threshold(found.language);
        let whole = prepare(&message, model.set, model.bits);
        let only = |f: fn(&mut FeatureSet)| {
            let mut set = FeatureSet {
                words: false,
                chars: false,
                classes: false,
                structure: false,
                gated: model.set.gated,
            };
            f(&mut set);
            prepare(&message, set, model.bits)
        };
        let parts = [
            only(|s| s.words = true),
            only(|s| s.chars = true),
            only(|s| s.classes = true),
            only(|s| s.structure = true),
        ];
        for (k, &(from, to)) in whole.ranges.iter().enumerate() {
            let family: Vec<String> =
                parts.iter().map(|p| format!("{:+6.2}", model.score(&p.sentences[k]))).collect();
            println!(
                "    {:+6.2} [w {} c {} k {} s {}] {}",
                model.score(&whole.sentences[k]) - threshold,
                family[0],
                family[1],
                family[2],
                family[3],
                &message[from..to]
            );
        }
    }
}
