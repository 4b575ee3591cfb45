//! `skillcase scan PATH... [--format text|json|sarif]`: the security scan over skill folders,
//! directories of skills and `.zip`/`.skill` packages (read by the zip inspector, nothing
//! written, scripts allowed so they are scanned too). Prints every finding with its code,
//! severity, `file:line:column` and fix. Exit 1 when any finding is `critical` or `error`, or a
//! PATH cannot be read; 0 otherwise (warnings allowed). Like `validate`, a pure computation over
//! files, so it calls the skill crate directly.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use serde::Serialize;
use skillcase_common::parallel;
use skillcase_skill::archive;
use skillcase_skill::finding::Finding;
use skillcase_skill::load;
use skillcase_skill::package::Package;
use skillcase_skill::policy::Policy;
use skillcase_skill::scan::{self, ScanFinding, ScanSeverity};
use skillcase_skill::skill_dir::{Reach, SkillDir};

use crate::validate::{is_package_file, skill_dirs};

/// Output formats of `skillcase scan`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ScanFormat {
    /// Readable lines.
    Text,
    /// One JSON document.
    Json,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
}

/// Arguments of `skillcase scan`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skill folders, directories whose subfolders are skill folders, or `.zip`/`.skill` packages.
    #[arg(required = true)]
    paths: Vec<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ScanFormat::Text)]
    format: ScanFormat,
}

/// One scanned skill as printed in JSON (and turned into SARIF results).
#[derive(Serialize)]
pub(crate) struct Scanned {
    pub path: String,
    pub findings: Vec<ScanFinding>,
    /// Why the path could not be scanned (the folder or zip was unreadable or refused).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<Finding>,
}

/// Totals over every skill.
#[derive(Serialize, Default)]
struct Summary {
    skills: usize,
    critical: usize,
    errors: usize,
    warnings: usize,
    unreadable: usize,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let dirs: Vec<(std::path::PathBuf, Reach)> = args.paths.iter().flat_map(|p| skill_dirs(p)).collect();
    let scanned = parallel::map(&dirs, |(path, reach)| scan_path(path, *reach), |_| {});
    let summary = summarise(&scanned);
    let failed = summary.critical + summary.errors + summary.unreadable > 0;
    let mut stdout = std::io::BufWriter::new(crate::terminal::output(args.format == ScanFormat::Text));
    match args.format {
        ScanFormat::Json => {
            let doc = serde_json::json!({ "skills": scanned, "summary": summary });
            serde_json::to_writer_pretty(&mut stdout, &doc)?;
            writeln!(stdout)?;
        }
        ScanFormat::Sarif => {
            serde_json::to_writer_pretty(&mut stdout, &crate::sarif::log(&scanned))?;
            writeln!(stdout)?;
        }
        ScanFormat::Text => print_text(&mut stdout, &scanned, &summary)?,
    }
    stdout.flush()?;
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn scan_path(path: &Path, reach: Reach) -> Scanned {
    let shown = path.display().to_string();
    match read(path, reach) {
        Ok(pkg) => Scanned { path: shown, findings: scan::scan_package(&pkg), unreadable: Vec::new() },
        Err(unreadable) => Scanned { path: shown, findings: Vec::new(), unreadable },
    }
}

/// The package at `path`: a folder through the one folder walk (junk skipped), a package file
/// through the zip inspector with scripts allowed, so they are read and scanned rather than refused.
fn read(path: &Path, reach: Reach) -> Result<Package, Vec<Finding>> {
    if !is_package_file(path) {
        let dir = SkillDir::open(path, reach).map_err(|e| vec![e.to_finding()])?;
        return load::package_from(dir).map_err(|e| vec![e.to_finding()]);
    }
    let policy = Policy { allow_executable: true, ..Policy::default() };
    let bytes = archive::read_package(path, &policy.limits).map_err(|e| match e {
        archive::ArchiveError::Refused { findings } => findings,
        e => vec![Finding::error(
            archive::codes::READ_FAILED,
            path.display().to_string(),
            format!("cannot read the package: {e}"),
        )
        .hint("check the path and that the file is readable")],
    })?;
    archive::inspect_bytes(&bytes, &policy)
}

fn summarise(scanned: &[Scanned]) -> Summary {
    let mut s = Summary { skills: scanned.len(), ..Summary::default() };
    for skill in scanned {
        s.unreadable += usize::from(!skill.unreadable.is_empty());
        for f in &skill.findings {
            match f.severity {
                ScanSeverity::Critical => s.critical += 1,
                ScanSeverity::Error => s.errors += 1,
                ScanSeverity::Warning => s.warnings += 1,
            }
        }
    }
    s
}

fn print_text(out: &mut impl Write, scanned: &[Scanned], s: &Summary) -> std::io::Result<()> {
    for skill in scanned {
        for f in &skill.unreadable {
            let location = if f.file.is_empty() {
                skill.path.clone()
            } else {
                format!("{}/{}", skill.path, f.location())
            };
            writeln!(out, "{location} error {}: {}", f.code, f.message)?;
        }
        for f in &skill.findings {
            writeln!(
                out,
                "{}/{} {} {}: {}",
                skill.path,
                f.location(),
                f.severity.as_str(),
                f.code,
                f.message
            )?;
            writeln!(out, "  hint: {}", f.hint)?;
        }
    }
    let verdict = if s.critical + s.errors + s.unreadable == 0 { "ok" } else { "failed" };
    write!(
        out,
        "{verdict}: {} skills scanned; {} critical, {} errors, {} warnings",
        s.skills, s.critical, s.errors, s.warnings
    )?;
    if s.unreadable > 0 {
        write!(out, "; {} could not be read", s.unreadable)?;
    }
    writeln!(out)
}
