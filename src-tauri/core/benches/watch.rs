//! Watcher latency (SPEC A9 "picked up within a second"): from a `SKILL.md` write to the
//! `SkillChanged` callback, with the default options (250 ms quiet window).
//!
//! Criterion reports the mean and median of its samples; the median and p95 over a fixed run of
//! writes are printed at the end (target: p95 under 500 ms).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use skillcase_core::watch::{SkillsWatcher, WatchEvent, WatchOptions};

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

criterion_group!(benches, write_to_event);
criterion_main!(benches);
