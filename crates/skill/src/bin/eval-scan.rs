//! `cargo run -p skillcase-skill --bin eval-scan [-- DATA_DIR CORPUS]`: precision and recall of
//! the security scan per category, on the malicious skills of `tests/data/scan/` (the `train`
//! split the rules were written against, and the `held-out` split of variations they were not)
//! with the shared corpus of real skills as the clean set. Prints one Markdown table per split,
//! and every false positive and false negative, so a change to a rule shows what it moved.

use std::path::{Path, PathBuf};

use skillcase_skill::scan::measure::{clean, flagged, malicious, measure, Sample};
use skillcase_skill::scan::Category;

fn main() -> std::io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut args = std::env::args().skip(1);
    let data = args.next().map(PathBuf::from).unwrap_or_else(|| root.join("tests/data/scan"));
    let corpus = args.next().map(PathBuf::from).unwrap_or_else(|| root.join("../shared/corpus"));
    let clean = clean(&corpus)?;
    for split in ["train", "held-out"] {
        let mut samples: Vec<Sample> = malicious(&data, split)?;
        let bad = samples.len();
        samples.extend(clean.iter().cloned());
        println!("\n## {split}: {bad} malicious skills, {} clean real skills\n", clean.len());
        println!("| category | flagged right | false alarms | missed | precision | recall |");
        println!("|---|---|---|---|---|---|");
        for (category, counts) in measure(&samples, flagged) {
            println!(
                "| {} | {} | {} | {} | {} | {} |",
                category.as_str(),
                counts.true_positives,
                counts.false_positives,
                counts.false_negatives,
                percent(counts.precision()),
                percent(counts.recall())
            );
        }
        for sample in &samples {
            let found = flagged(&sample.dir);
            for category in Category::ALL {
                match (sample.labels.contains(&category), found.contains(&category)) {
                    (false, true) => println!("false alarm  {}: {}", category.as_str(), sample.dir.display()),
                    (true, false) => println!("missed       {}: {}", category.as_str(), sample.dir.display()),
                    _ => {}
                }
            }
        }
    }
    Ok(())
}

fn percent(value: Option<f64>) -> String {
    value.map(|v| format!("{:.1} %", v * 100.0)).unwrap_or_else(|| "—".to_string())
}
