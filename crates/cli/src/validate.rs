//! `skillcase validate PATH... [--profile P] [--format text|json]`: validates skill folders (a
//! folder holding SKILL.md, or a directory whose subfolders are skills) and skill packages
//! (`.zip` / `.skill` files, read by the zip inspector without writing anything) and prints every finding
//! as `path/SKILL.md:LINE:COL severity code: message` with its hint, then a summary.
//! Exit 0 when every skill is valid (warnings allowed), 1 when any has an error.

use crate::format::Format;
use crate::terminal::escape;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;
use skillcase_common::parallel;
use skillcase_skill::archive;
use skillcase_skill::files;
use skillcase_skill::finding::{Finding, Severity};
use skillcase_skill::load;
use skillcase_skill::policy::Policy;
use skillcase_skill::skill_dir::{Reach, SkillDir};
use skillcase_skill::validate::{self, Profile, Validated};

/// Deepest folder level searched for skills under a PATH.
const SEARCH_DEPTH: usize = 4;

/// Arguments of `skillcase validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skill folders, directories whose subfolders are skill folders, or `.zip`/`.skill` packages.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Rule set: standard (Agent Skills spec), claude (Anthropic upload rules), skillcase, or a
    /// client's own: claude-code, codex.
    #[arg(long, default_value = "skillcase", value_parser = parse_profile)]
    profile: Profile,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

fn parse_profile(s: &str) -> Result<Profile, String> {
    s.parse()
}

/// One validated skill as printed in JSON.
#[derive(Serialize)]
struct Report {
    path: String,
    name: Option<String>,
    #[serde(rename = "type")]
    skill_type: Option<&'static str>,
    valid: bool,
    findings: Vec<Finding>,
}

/// Totals over every skill.
#[derive(Serialize, Default)]
struct Summary {
    skills: usize,
    valid: usize,
    invalid: usize,
    errors: usize,
    warnings: usize,
}

/// The whole JSON document.
#[derive(Serialize)]
struct Output<'a> {
    profile: &'static str,
    skills: &'a [Report],
    summary: Summary,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let dirs: Vec<(PathBuf, Reach)> = args.paths.iter().flat_map(|p| skill_dirs(p)).collect();
    let reports = validate_all(&dirs, args.profile);
    let summary = summarise(&reports);
    let failed = summary.invalid > 0;
    let mut stdout = std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
    match args.format {
        Format::Json => {
            let out = Output { profile: args.profile.as_str(), skills: &reports, summary };
            serde_json::to_writer_pretty(&mut stdout, &out)?;
            writeln!(stdout)?;
        }
        Format::Text => print_text(&mut stdout, &reports, &summary, colour_wanted())?,
    }
    stdout.flush()?;
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Validates the folders on all cores, keeping the reports in the order of `dirs`.
fn validate_all(dirs: &[(PathBuf, Reach)], profile: Profile) -> Vec<Report> {
    let policy = Policy::default();
    parallel::map(dirs, |(dir, reach)| report(dir, validate_path(dir, *reach, profile, &policy)), |_| {})
}

/// A folder goes through the loader, a package file through the zip inspector.
fn validate_path(path: &Path, reach: Reach, profile: Profile, policy: &Policy) -> Validated {
    if !is_package_file(path) {
        return match SkillDir::open(path, reach) {
            Ok(dir) => load::load_from(dir, profile, policy),
            Err(e) => Validated::failed(vec![e.to_finding()]),
        };
    }
    let shown = path.display().to_string();
    let bytes = match archive::read_package(path, &policy.limits) {
        Ok(bytes) => bytes,
        Err(archive::ArchiveError::Refused { findings }) => return Validated::failed(findings),
        Err(e) => {
            let finding =
                Finding::error(archive::codes::READ_FAILED, shown, format!("cannot read the package: {e}"))
                    .hint("check the path and that the file is readable");
            return Validated::failed(vec![finding]);
        }
    };
    match archive::inspect_bytes(&bytes, policy) {
        Ok(package) => validate::validate_package(&package, profile, policy),
        Err(findings) => Validated::failed(findings),
    }
}

/// Looks at the extension first, so a folder costs no `stat` here.
pub(crate) fn is_package_file(path: &Path) -> bool {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    matches!(ext.as_deref(), Some("zip" | "skill")) && path.is_file()
}

/// The skill folders a PATH names, each with how it is opened: itself when it holds SKILL.md (or
/// is not a directory, so the loader reports it), followed as the shell would, else every real
/// folder below it holding one, never through a link (not even one swapped in after the search).
/// A skill folder costs one `stat` here: holding SKILL.md already makes it a directory.
pub(crate) fn skill_dirs(path: &Path) -> Vec<(PathBuf, Reach)> {
    if is_skill_dir(path) || !path.is_dir() {
        return vec![(path.to_path_buf(), Reach::Named)];
    }
    let mut found = Vec::new();
    search(path, 1, &mut found);
    found.sort();
    if found.is_empty() {
        return vec![(path.to_path_buf(), Reach::Named)];
    }
    found.into_iter().map(|dir| (dir, Reach::Listed)).collect()
}

fn is_skill_dir(path: &Path) -> bool {
    path.join("SKILL.md").is_file() || path.join("skill.md").is_file()
}

fn search(dir: &Path, depth: usize, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let junk = files::is_junk(&entry.file_name().to_string_lossy());
        if junk || !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        if is_skill_dir(&path) {
            found.push(path);
        } else if depth < SEARCH_DEPTH {
            search(&path, depth + 1, found);
        }
    }
}

fn report(dir: &Path, v: Validated) -> Report {
    let valid = v.is_valid();
    Report {
        path: dir.display().to_string(),
        name: v.skill.as_ref().map(|s| s.name.clone()),
        skill_type: v.skill.as_ref().map(|s| s.skill_type.as_str()),
        valid,
        findings: v.findings,
    }
}

fn summarise(reports: &[Report]) -> Summary {
    let mut s = Summary { skills: reports.len(), ..Summary::default() };
    for r in reports {
        if r.valid {
            s.valid += 1;
        } else {
            s.invalid += 1;
        }
        s.errors += r.findings.iter().filter(|f| f.is_error()).count();
        s.warnings += r.findings.iter().filter(|f| !f.is_error()).count();
    }
    s
}

fn colour_wanted() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// ANSI styling, or nothing when colour is off.
struct Paint(bool);

impl Paint {
    fn wrap(&self, code: &str, text: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

fn print_text(out: &mut impl Write, reports: &[Report], s: &Summary, colour: bool) -> std::io::Result<()> {
    let paint = Paint(colour);
    for r in reports {
        for f in &r.findings {
            print_finding(out, &paint, &r.path, f)?;
        }
    }
    let verdict = if s.invalid == 0 { paint.wrap("32", "ok") } else { paint.wrap("31", "failed") };
    writeln!(
        out,
        "{verdict}: {} skills checked, {} valid, {} invalid; {} errors, {} warnings",
        s.skills, s.valid, s.invalid, s.errors, s.warnings
    )
}

/// One finding; every field that comes from the skill (its path, file names in the message) goes
/// through [`escape`] first, since the colours are escapes of this printer's own.
fn print_finding(out: &mut impl Write, paint: &Paint, dir: &str, f: &Finding) -> std::io::Result<()> {
    let location = if f.file.is_empty() { dir.to_string() } else { format!("{dir}/{}", f.location()) };
    let location = escape(&location);
    let message = escape(&f.message);
    let severity = match f.severity {
        Severity::Error => paint.wrap("1;31", "error"),
        Severity::Warning => paint.wrap("1;33", "warning"),
    };
    writeln!(out, "{} {severity} {}: {message}", paint.wrap("1", &location), f.code)?;
    if let Some(hint) = &f.hint {
        writeln!(out, "  {} {}", paint.wrap("36", "hint:"), escape(hint))?;
    }
    Ok(())
}
