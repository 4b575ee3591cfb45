//! `skillcase test PATH… [--format text|json|junit]`: runs every skill's trigger cases
//! (`skill.triggers.json`) through the matcher and level-2 routing the agent gets, with all the
//! skills of every PATH taking part in matching, and reports each skill's cases, precision and
//! recall, and the library's conflicts. Exit 1 when a case fails or a skill does not validate.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;
use skillcase_skill::finding::Finding;
use skillcase_skill::model::Skill;
use skillcase_skill::triggers::{self, CaseFailure, CaseResult, ConflictKind, TriggerCase, TriggerReport};

use crate::skills;

/// How `skillcase test` prints its report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TestFormat {
    /// One line per case, a summary per skill, then the conflicts.
    Text,
    /// The whole report as one JSON document.
    Json,
    /// JUnit XML (a test suite per skill), for CI dashboards.
    Junit,
}

/// Arguments of `skillcase test`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skill folders or skills directories; their skills are matched together.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TestFormat::Text)]
    format: TestFormat,
}

/// A skill folder that could not take part: it does not validate, or its cases cannot be read.
#[derive(Debug, Serialize)]
struct Broken {
    path: String,
    findings: Vec<Finding>,
}

impl crate::junit::Broken for Broken {
    fn path(&self) -> &str {
        &self.path
    }

    fn messages(&self) -> Vec<String> {
        self.findings.iter().map(|f| format!("{} {}: {}", f.code, f.location(), f.message)).collect()
    }
}

/// The JSON document: the run's report plus the folders that could not run.
#[derive(Serialize)]
struct Document<'a> {
    #[serde(flatten)]
    report: &'a TriggerReport,
    broken: &'a [Broken],
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut skills = Vec::new();
    let mut broken = Vec::new();
    for path in &args.paths {
        if !path.is_dir() {
            anyhow::bail!("{} is not a directory", path.display());
        }
        collect(path, &mut skills, &mut broken);
    }
    let cases = read_cases(&skills, &mut broken);
    let report = triggers::run_cases(&skills, &cases);
    match args.format {
        TestFormat::Json => skills::print_json(&Document { report: &report, broken: &broken })?,
        TestFormat::Text => print_text(&report, &broken)?,
        TestFormat::Junit => crate::junit::write(&report, &broken, std::io::stdout().lock())?,
    }
    Ok(if report.is_success() && broken.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn collect(path: &Path, skills: &mut Vec<Skill>, broken: &mut Vec<Broken>) {
    for (dir, validated) in skills::load_all(path) {
        let valid = validated.is_valid();
        match validated.skill {
            Some(skill) if valid => skills.push(skill),
            _ => broken.push(Broken {
                path: dir.display().to_string(),
                findings: validated.findings.into_iter().filter(Finding::is_error).collect(),
            }),
        }
    }
}

fn read_cases(skills: &[Skill], broken: &mut Vec<Broken>) -> BTreeMap<String, Vec<TriggerCase>> {
    let mut cases = BTreeMap::new();
    for skill in skills {
        match triggers::read_cases(&skill.dir, skills::max_read()) {
            Ok(found) if found.is_empty() => {}
            Ok(found) => {
                cases.insert(skill.name.clone(), found);
            }
            Err(findings) => broken.push(Broken { path: skill.dir.display().to_string(), findings }),
        }
    }
    cases
}

fn print_text(report: &TriggerReport, broken: &[Broken]) -> anyhow::Result<()> {
    let mut out = crate::terminal::stdout();
    for tests in &report.skills {
        writeln!(
            out,
            "{}: {} passed, {} failed; precision {}, recall {}",
            tests.name,
            tests.passed,
            tests.failed,
            percent(tests.precision),
            percent(tests.recall)
        )?;
        for case in &tests.cases {
            writeln!(out, "  {} {}", if case.failure.is_none() { "ok  " } else { "FAIL" }, describe(case))?;
        }
    }
    if !report.conflicts.is_empty() {
        writeln!(out, "conflicts:")?;
        for c in &report.conflicts {
            let what = match c.kind {
                ConflictKind::FiresMany => format!("fires {}", c.skills.join(", ")),
                ConflictKind::Taken => format!("should fire {} but fires {}", c.owner, c.skills.join(", ")),
            };
            writeln!(out, "  {:?} {what}", c.query)?;
        }
    }
    for b in broken {
        writeln!(out, "not run: {}", b.path)?;
        for f in &b.findings {
            writeln!(out, "  error[{}] {}: {}", f.code, f.location(), f.message)?;
        }
    }
    let cases = report.passed + report.failed;
    writeln!(
        out,
        "{cases} case(s) in {} skill(s): {} passed, {} failed; {} conflict(s); {} skill(s) not run",
        report.skills.len(),
        report.passed,
        report.failed,
        report.conflicts.len(),
        broken.len()
    )?;
    Ok(())
}

/// `"message" -> hard (keyword: frete); route: a.md, b.md` plus what was expected when it failed.
pub fn describe(case: &CaseResult) -> String {
    let fired = match (&case.fired, &case.keyword) {
        (Some(t), Some(k)) => format!("{} (keyword: {k})", t.as_str()),
        _ => "does not fire".to_string(),
    };
    let mut line = format!("{:?} -> {fired}", case.case.query);
    if case.fired.is_some() && !case.required.is_empty() {
        line.push_str(&format!("; route: {}", case.required.join(", ")));
    }
    if !case.others.is_empty() {
        line.push_str(&format!("; also fires {}", case.others.join(", ")));
    }
    if let Some(failure) = case.failure {
        line.push_str(&format!("; expected {}", expected(&case.case, failure)));
    }
    line
}

/// What the case expected, in the words of its failure.
pub fn expected(case: &TriggerCase, failure: CaseFailure) -> String {
    let kind = case.kind.map_or("hard", |k| k.as_str());
    match failure {
        CaseFailure::NotFired | CaseFailure::WrongKind => format!("to fire {kind}"),
        CaseFailure::FiredUnexpectedly => "not to fire".to_string(),
        CaseFailure::WrongRoute => {
            format!("route: {}", case.required_refs.as_deref().unwrap_or_default().join(", "))
        }
    }
}

fn percent(share: Option<f64>) -> String {
    share.map_or("n/a".to_string(), |s| format!("{:.0} %", s * 100.0))
}
