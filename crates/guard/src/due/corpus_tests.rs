//! [`find`] measured on the labelled corpus (`tests/data/guard/corpus/`, repository root):
//! promise rows carry in `due` the time expression copied exactly from the text, or nothing
//! when the message gives no time. The blind split is never read here.
//!
//! Three figures per language: how often a found span equals the annotated one, how often one
//! overlaps it, and how often something is found in a promise row annotated with no time (a
//! false find). The floors are the figures measured when they were set, rounded down, so a
//! regression fails the build; set `DUE_CORPUS_REPORT=1` to print the misses.

use super::*;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/guard/corpus");

struct Row {
    text: String,
    actor: String,
    due: String,
}

/// The promise rows of one corpus file.
fn promises(file: &str) -> Vec<Row> {
    let path = format!("{CORPUS}/{file}");
    let data = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = data.lines();
    assert_eq!(lines.next(), Some("label\tlang\tdomain\tregister\tkind\ttext\tactor\tdue"), "{path}: header");
    lines
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 8, "{path}: {l:?}");
            (cols[0] == "promise").then(|| Row {
                text: cols[5].to_string(),
                actor: cols[6].to_string(),
                due: cols[7].to_string(),
            })
        })
        .collect()
}

#[derive(Debug, Default)]
struct Figures {
    timed: usize,
    exact: usize,
    overlap: usize,
    first_exact: usize,
    near_exact: usize,
    untimed: usize,
    false_finds: usize,
}

impl Figures {
    fn exact_rate(&self) -> f64 {
        self.exact as f64 / self.timed as f64
    }
    fn overlap_rate(&self) -> f64 {
        self.overlap as f64 / self.timed as f64
    }
    fn first_exact_rate(&self) -> f64 {
        self.first_exact as f64 / self.timed as f64
    }
    fn near_exact_rate(&self) -> f64 {
        self.near_exact as f64 / self.timed as f64
    }
    fn false_find_rate(&self) -> f64 {
        self.false_finds as f64 / self.untimed as f64
    }
}

fn measure(file: &str) -> Figures {
    let report = std::env::var_os("DUE_CORPUS_REPORT").is_some();
    let mut f = Figures::default();
    for row in promises(file) {
        let found = find(&row.text);
        if row.due.is_empty() {
            f.untimed += 1;
            if !found.is_empty() {
                f.false_finds += 1;
                if report {
                    let texts: Vec<&str> = found.iter().map(|e| e.text.as_str()).collect();
                    println!("FALSE {file} {texts:?} in {:?}", row.text);
                }
            }
            continue;
        }
        f.timed += 1;
        let Some(byte) = row.text.find(&row.due) else {
            panic!("{file}: due {:?} not in {:?}", row.due, row.text)
        };
        let start = row.text[..byte].chars().count();
        let end = start + row.due.chars().count();
        if found.iter().any(|e| (e.start, e.end) == (start, end)) {
            f.exact += 1;
        }
        if found.iter().any(|e| e.start < end && start < e.end) {
            f.overlap += 1;
        } else if report {
            println!("MISS {file} {:?} in {:?}", row.due, row.text);
        }
        let chosen = super::nearest(&found, &row.text, &row.actor).or(found.first());
        if chosen.is_some_and(|e| (e.start, e.end) == (start, end)) {
            f.near_exact += 1;
        }
        if found.first().is_some_and(|e| (e.start, e.end) == (start, end)) {
            f.first_exact += 1;
        } else if report && found.iter().any(|e| (e.start, e.end) == (start, end)) {
            let texts: Vec<&str> = found.iter().map(|e| e.text.as_str()).collect();
            println!("NOTFIRST {file} {:?} {texts:?}", row.due);
        } else if report && found.iter().any(|e| e.start < end && start < e.end) {
            let texts: Vec<&str> = found.iter().map(|e| e.text.as_str()).collect();
            println!("INEXACT {file} {:?} {texts:?}", row.due);
        }
    }
    f
}

/// Floors (and, for false finds, a ceiling): what was measured when they were set, rounded
/// down (up for the ceiling) to two decimals.
struct Pins {
    exact: f64,
    overlap: f64,
    near_exact: f64,
    first_exact: f64,
    false_finds: f64,
}

fn holds(file: &str, pins: Pins) {
    let f = measure(file);
    let shown = format!(
        "{file}: {} timed promises: exact {}/{} = {:.3}, overlap {} = {:.3}, chosen beside the actor {} = {:.3}, \
         first {} = {:.3}; {} untimed promises: false finds {} = {:.3}",
        f.timed,
        f.exact,
        f.timed,
        f.exact_rate(),
        f.overlap,
        f.overlap_rate(),
        f.near_exact,
        f.near_exact_rate(),
        f.first_exact,
        f.first_exact_rate(),
        f.untimed,
        f.false_finds,
        f.false_find_rate()
    );
    println!("{shown}");
    assert!(f.exact_rate() >= pins.exact, "exact below {}: {shown}", pins.exact);
    assert!(f.overlap_rate() >= pins.overlap, "overlap below {}: {shown}", pins.overlap);
    assert!(f.near_exact_rate() >= pins.near_exact, "chosen below {}: {shown}", pins.near_exact);
    assert!(f.first_exact_rate() >= pins.first_exact, "first below {}: {shown}", pins.first_exact);
    assert!(f.false_find_rate() <= pins.false_finds, "false finds above {}: {shown}", pins.false_finds);
}

#[test]
fn english_extraction_holds_its_measured_floors() {
    holds(
        "en.tsv",
        Pins { exact: 0.90, overlap: 0.94, near_exact: 0.87, first_exact: 0.81, false_finds: 0.15 },
    );
}

#[test]
fn portuguese_extraction_holds_its_measured_floors() {
    holds(
        "pt-BR.tsv",
        Pins { exact: 0.96, overlap: 0.97, near_exact: 0.92, first_exact: 0.88, false_finds: 0.11 },
    );
}

/// Every message of the corpus (promises and hard negatives alike).
fn all_texts(file: &str) -> Vec<String> {
    let path = format!("{CORPUS}/{file}");
    let data = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    data.lines().skip(1).filter_map(|l| l.split('\t').nth(5).map(str::to_string)).collect()
}

#[test]
fn every_expression_found_in_the_corpus_falls_due_after_now() {
    let calendar =
        Calendar::named("America/Sao_Paulo").expect("the time zone database has America/Sao_Paulo");
    // A weekday morning, a Friday after the close, a Sunday, New Year's Eve late at night.
    let nows = ["2025-03-12 10:00", "2025-03-14 19:30", "2025-03-16 09:00", "2025-12-31 23:30"];
    for file in ["en.tsv", "pt-BR.tsv"] {
        for text in all_texts(file) {
            for expression in find(&text) {
                let dated =
                    matches!(expression.meaning, Meaning::Day { day: Day::Date { year: Some(_), .. }, .. });
                for now in nows {
                    let civil: jiff::civil::DateTime = now.parse().expect("a test date-time");
                    let now =
                        civil.to_zoned_datetime(calendar.time_zone().clone()).expect("a time that exists");
                    let due = resolve(&expression, &now, &calendar);
                    assert!(
                        dated || due.as_ref().is_some_and(|d| *d > now),
                        "{:?} ({:?}) said at {now} falls due at {due:?}",
                        expression.text,
                        expression.meaning
                    );
                }
            }
        }
    }
}
