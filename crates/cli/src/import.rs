//! `skillcase import PATH --into DIR [--data-dir D] [--dry-run] [--format text|json]`: imports a
//! skill package (`.zip`/`.skill`) or a skill folder into `DIR/<name>/` through the one import
//! pipeline the window and the API use (SPEC A8): inspected and validated in memory, staged in a
//! hidden folder beside DIR, renamed into place, and recorded as a version in the library of the
//! data directory D (default: the usual one). Exit 0 when imported (or, with `--dry-run`,
//! importable), 1 when refused (every finding printed with its code, location, message and hint)
//! or on an I/O failure.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use skillcase_application::App;
use skillcase_library::ImportReport;
use skillcase_skill::finding::{Finding, Severity};

use crate::format::Format;

/// Arguments of `skillcase import`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill package (.zip or .skill) or skill folder to import.
    path: PathBuf,
    /// The skills directory; the skill lands in DIR/<name>/.
    #[arg(long, value_name = "DIR")]
    into: PathBuf,
    /// The data directory whose library records the version (default: the usual one).
    #[arg(long, value_name = "D")]
    data_dir: Option<PathBuf>,
    /// Run every check and write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let source = args.path.display().to_string();
    let result = App::block_on(async {
        let app = crate::workspace::open_scanned(args.data_dir, Some(args.into.clone())).await?;
        anyhow::Ok(app.import_skill(args.path, args.dry_run).await)
    })?;
    let mut stdout = crate::terminal::output(args.format == Format::Text);
    let report = match result {
        Ok(report) => report,
        Err(error) => {
            match args.format {
                Format::Json => {
                    serde_json::to_writer_pretty(&mut stdout, &serde_json::json!({ "error": error }))?
                }
                Format::Text => write!(stdout, "error {}: {}", error.code, error.message)?,
            }
            writeln!(stdout)?;
            return Ok(ExitCode::from(1));
        }
    };
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut stdout, &report)?;
            writeln!(stdout)?;
        }
        Format::Text => print_report(&mut stdout, &source, &args.into, &report)?,
    }
    Ok(if report.refused.is_none() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn print_report(
    out: &mut impl Write,
    source: &str,
    into: &std::path::Path,
    report: &ImportReport,
) -> std::io::Result<()> {
    for finding in &report.findings {
        print_finding(out, source, finding)?;
    }
    if report.refused.is_some() {
        let errors = report.findings.iter().filter(|f| f.is_error()).count();
        return writeln!(out, "refused: {source} was not imported ({errors} errors); nothing was written");
    }
    let name = report.name.as_deref().unwrap_or_default();
    let verb = match (report.installed, report.replaced) {
        (true, true) => "replaced",
        (true, false) => "imported",
        (false, true) => "dry run: would replace",
        (false, false) => "dry run: would import",
    };
    let bytes: u64 = report.files.iter().map(|f| f.size).sum();
    write!(
        out,
        "{verb} {name} at {} ({} files, {bytes} bytes)",
        into.join(name).display(),
        report.files.len()
    )?;
    match &report.version {
        Some(version) => writeln!(out, " as version {}", version.id)?,
        None => writeln!(out)?,
    }
    for change in &report.trigger_changes {
        let verdict = if change.passed_before { "now fails" } else { "now passes" };
        writeln!(
            out,
            "  trigger case of {} {verdict}: {}",
            change.skill,
            crate::test::describe(&change.now)
        )?;
    }
    Ok(())
}

fn print_finding(out: &mut impl Write, source: &str, f: &Finding) -> std::io::Result<()> {
    let location = if f.file.is_empty() { source.to_string() } else { format!("{source}:{}", f.location()) };
    let severity = match f.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    writeln!(out, "{location} {severity} {}: {}", f.code, f.message)?;
    if let Some(hint) = &f.hint {
        writeln!(out, "  hint: {hint}")?;
    }
    Ok(())
}
