//! Measures the promise ledger's due times on labelled promise sentences
//! (`tests/data/guard/due/<split>/<language>.tsv`, see its README): each message goes through the
//! detector and [`due_for`] as before-send does, said at the row's `now` on the default workspace
//! calendar of the language's zone (English: America/New_York, Portuguese: America/Sao_Paulo,
//! national holidays included), and the due time found is compared with the label: the date, the
//! part of the day (morning up to 12:00, afternoon up to 18:00, evening after), the exact minute.
//!
//! `cargo run -p skillcase-guard --release --bin eval-due [-- OPTIONS]`
//!
//! Options: `--split holdout|dev` (default `holdout`), `--show` (print every row that is not
//! exactly right; refused on the held-out split, whose rows the reader must never be tuned on),
//! `--floor X` (exit 1 when a language's date or part-of-day rate is below X: `scripts/test` holds
//! the development splits to theirs).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use jiff::civil::DateTime;
use jiff::ZonedDateTime;
use skillcase_guard::detect;
use skillcase_guard::due::{due_for, find, resolve, Calendar, CalendarSettings};

/// One labelled row.
struct Row {
    now: DateTime,
    text: String,
    expression: String,
    due: Option<DateTime>,
}

/// The counts of one language.
#[derive(Default)]
struct Tally {
    timed: usize,
    date: usize,
    part: usize,
    both: usize,
    exact: usize,
    none_found: usize,
    /// Wrong dates where another time found in the message had the right one: the choice among
    /// times failed, not the reading.
    wrong_choice: usize,
    untimed: usize,
    false_finds: usize,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let split = value("--split").unwrap_or_else(|| "holdout".into());
    let show = args.iter().any(|a| a == "--show");
    let floor: Option<f64> = value("--floor").map(|f| f.parse().expect("--floor takes a rate such as 0.97"));
    if show && split == "holdout" {
        eprintln!("--show is for the dev split: the held-out rows must not be read while the reader changes");
        return ExitCode::from(2);
    }
    let dir = data_dir().join(&split);
    let mut ok = true;
    println!("due times on tests/data/guard/due/{split}/ (date / part of day / both / exact minute)");
    for (language, zone) in [("en", "America/New_York"), ("pt-BR", "America/Sao_Paulo")] {
        let settings = CalendarSettings { time_zone: Some(zone.into()), ..CalendarSettings::default() };
        let calendar = Calendar::from_settings(&settings).expect("a known zone");
        let rows = read(&dir.join(format!("{language}.tsv")));
        let tally = measure(&rows, &calendar, show);
        report(language, &tally);
        if let Some(floor) = floor {
            let t = tally.timed as f64;
            if (tally.date as f64) < floor * t || (tally.part as f64) < floor * t {
                eprintln!("{language}: due dates or parts of the day right below the floor {floor}");
                ok = false;
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/guard/due")
}

fn read(path: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("now\ttext\texpression\tdue"), "{}: header", path.display());
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 4, "{}: {line}", path.display());
            let time = |s: &str| s.parse::<DateTime>().unwrap_or_else(|e| panic!("{s}: {e}"));
            Row {
                now: time(cols[0]),
                text: cols[1].to_string(),
                expression: cols[2].to_string(),
                due: (!cols[3].is_empty()).then(|| time(cols[3])),
            }
        })
        .collect()
}

fn measure(rows: &[Row], calendar: &Calendar, show: bool) -> Tally {
    let mut t = Tally::default();
    for row in rows {
        let now: ZonedDateTime =
            row.now.to_zoned_datetime(calendar.time_zone().clone()).expect("a time in the zone");
        let found = detect::detect(&row.text);
        let due = due_for(&row.text, &found, &now, calendar);
        let got = due.as_ref().map(|d| d.at.datetime());
        let Some(expected) = row.due else {
            t.untimed += 1;
            if let Some(d) = &due {
                t.false_finds += 1;
                if show {
                    println!("  found {:?} in a message naming no time: {}", d.expression.text, row.text);
                }
            }
            continue;
        };
        t.timed += 1;
        let Some(got) = got else {
            t.none_found += 1;
            if show {
                println!("  none (expected {expected} for {:?}): {}", row.expression, row.text);
            }
            continue;
        };
        let date = got.date() == expected.date();
        if !date {
            let found_right = find(&row.text)
                .iter()
                .filter_map(|e| resolve(e, &now, calendar))
                .any(|at| at.datetime().date() == expected.date());
            t.wrong_choice += usize::from(found_right);
        }
        let part = part(got) == part(expected);
        t.date += usize::from(date);
        t.part += usize::from(part);
        t.both += usize::from(date && part);
        t.exact += usize::from(got == expected);
        if show && got != expected {
            let said = due.map(|d| d.expression.text).unwrap_or_default();
            println!(
                "  {} {got} (read {said:?}) expected {expected} ({:?}) at {}: {}\n      evidence: {:?}",
                if date && part { "~" } else { "x" },
                row.expression,
                row.now,
                row.text,
                found.evidence
            );
        }
    }
    t
}

/// Morning up to 12:00, afternoon up to 18:00, evening after.
fn part(at: DateTime) -> u8 {
    let minutes = i32::from(at.hour()) * 60 + i32::from(at.minute());
    if minutes <= 720 {
        0
    } else if minutes <= 1080 {
        1
    } else {
        2
    }
}

fn report(language: &str, t: &Tally) {
    let rate = |n: usize| if t.timed == 0 { 0.0 } else { n as f64 / t.timed as f64 };
    println!(
        "{language}: {} naming a time: date {} ({:.3}), part of day {} ({:.3}), both {} ({:.3}), exact {} ({:.3}), none found {}, wrong date with the right one found too {}; {} naming none: a time found anyway {}",
        t.timed,
        t.date,
        rate(t.date),
        t.part,
        rate(t.part),
        t.both,
        rate(t.both),
        t.exact,
        rate(t.exact),
        t.none_found,
        t.wrong_choice,
        t.untimed,
        t.false_finds
    );
}
