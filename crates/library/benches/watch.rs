//! Watcher latency (SPEC A9 "picked up within a second"): from a `SKILL.md` write to the
//! `SkillChanged` callback, with the default options (250 ms quiet window).
//!
//! Criterion reports the mean and median of its samples; the median and p95 over a fixed run of
//! writes are printed at the end (target: p95 under 500 ms). A second bench times an unzip of
//! 200 skills from the first byte written to the 200th `SkillChanged`.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use skillcase_library::watch::{SkillsWatcher, WatchEvent, WatchOptions};

/// Writes done outside criterion to get a percentile criterion does not report.
const PERCENTILE_SAMPLES: usize = 100;

struct Bench {
    skill_md: PathBuf,
    changed: mpsc::Receiver<Instant>,
    writes: u64,
}

impl Bench {
    /// One write of a new `SKILL.md` and the time until the watcher reported it.
    fn one(&mut self) -> Duration {
        self.writes += 1;
        let text = format!(
            "---\nname: frete\ndescription: Calcula o frete, edição {}.\n---\n# Frete\n",
            self.writes
        );
        let written = Instant::now();
        fs::write(&self.skill_md, text).unwrap();
        let reported = self.changed.recv_timeout(Duration::from_secs(10)).expect("no SkillChanged in 10 s");
        reported.duration_since(written)
    }
}

fn start(dir: &Path) -> (SkillsWatcher, Bench) {
    let skill = dir.join("frete");
    fs::create_dir(&skill).unwrap();
    let skill_md = skill.join("SKILL.md");
    fs::write(&skill_md, "---\nname: frete\ndescription: Calcula o frete.\n---\n").unwrap();
    let (tx, changed) = mpsc::channel();
    let watcher = SkillsWatcher::start(dir, WatchOptions::default(), move |batch| {
        if batch.iter().any(|e| matches!(e, WatchEvent::SkillChanged { .. })) {
            let _ = tx.send(Instant::now());
        }
    })
    .unwrap();
    (watcher, Bench { skill_md, changed, writes: 0 })
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn write_to_event(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let (_watcher, mut bench) = start(dir.path());

    let mut group = c.benchmark_group("watch");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(6));
    group.bench_function("skill_md_write_to_skill_changed", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| bench.one()).sum())
    });
    group.finish();

    let mut samples: Vec<Duration> = (0..PERCENTILE_SAMPLES).map(|_| bench.one()).collect();
    samples.sort();
    println!(
        "watch latency over {} writes: median {:.0} ms, p95 {:.0} ms, max {:.0} ms",
        samples.len(),
        percentile(&samples, 50.0).as_secs_f64() * 1000.0,
        percentile(&samples, 95.0).as_secs_f64() * 1000.0,
        samples[samples.len() - 1].as_secs_f64() * 1000.0,
    );
}

/// A zip of `count` skills named `{prefix}-NNN`, three files each.
fn zip_of_skills(prefix: &str, count: usize) -> Vec<u8> {
    use std::io::Write;
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for i in 0..count {
        let name = format!("{prefix}-{i:03}");
        let files = [
            (
                "SKILL.md",
                format!("---\nname: {name}\ndescription: Bench skill {i}.\n---\n# {name}\n").into_bytes(),
            ),
            ("references/guia.md", format!("# Guia {i}\n").into_bytes()),
            ("assets/logo.bin", vec![7u8; 4096]),
        ];
        for (file, bytes) in files {
            writer.start_file(format!("{name}/{file}"), options).unwrap();
            writer.write_all(&bytes).unwrap();
        }
    }
    writer.finish().unwrap().into_inner()
}

fn unzip_burst(c: &mut Criterion) {
    const SKILLS: usize = 200;
    let dir = tempfile::tempdir().unwrap();
    let (tx, changed) = mpsc::channel();
    let _watcher = SkillsWatcher::start(dir.path(), WatchOptions::default(), move |batch| {
        let count = batch.iter().filter(|e| matches!(e, WatchEvent::SkillChanged { .. })).count();
        let _ = tx.send(count);
    })
    .unwrap();
    let mut round = 0;
    let mut group = c.benchmark_group("watch");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(20));
    group.bench_function("unzip_200_skills_to_last_skill_changed", |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| {
                    round += 1;
                    let zip = zip_of_skills(&format!("r{round}"), SKILLS);
                    let started = Instant::now();
                    zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap().extract(dir.path()).unwrap();
                    let mut seen = 0;
                    while seen < SKILLS {
                        seen +=
                            changed.recv_timeout(Duration::from_secs(30)).expect("all 200 skills reported");
                    }
                    assert_eq!(seen, SKILLS, "one event per skill");
                    started.elapsed()
                })
                .sum()
        })
    });
    group.finish();
}

criterion_group!(benches, write_to_event, unzip_burst);
criterion_main!(benches);
