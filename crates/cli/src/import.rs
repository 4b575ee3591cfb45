//! `skillcase import ZIP --into DIR [--dry-run] [--format text|json]`: imports an untrusted skill
//! zip into `DIR/<name>/` (SPEC A8) — inspected and validated in memory, staged in a hidden folder
//! beside DIR, renamed into place. Exit 0 when imported (or, with `--dry-run`, importable),
//! 1 when refused (every finding printed with its code, location, message and hint) or on an I/O
//! failure.
//!
//! With `--data-dir D` the import goes through the skill library kept in D (the same one the app
//! and `skillcase serve` use): the version is recorded in D's database and blob store, and the
//! JSON output is the library's import report.

use crate::format::Format;
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;
use skillcase_common::error::ErrorBody;
use skillcase_library::archive::{self, ArchiveError, Imported};
use skillcase_library::{Library, LibraryOptions};
use skillcase_skill::finding::{Finding, Severity};
use skillcase_skill::policy::Policy;

/// Arguments of `skillcase import`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill package (.zip) to import.
    zip: PathBuf,
    /// The skills directory; the skill lands in DIR/<name>/.
    #[arg(long, value_name = "DIR")]
    into: PathBuf,
    /// Record the import in the skill library of this data directory (versions, blobs).
    #[arg(long, value_name = "D")]
    data_dir: Option<PathBuf>,
    /// Run every check and write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The JSON document: what was imported, or why not.
#[derive(Serialize)]
struct Output<'a> {
    zip: String,
    ok: bool,
    dry_run: bool,
    imported: Option<&'a Imported>,
    findings: &'a [Finding],
    error: Option<ErrorBody>,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(data_dir) = &args.data_dir {
        return run_in_library(&args, data_dir);
    }
    let result = File::open(&args.zip)
        .map_err(|source| ArchiveError::Read { source })
        .and_then(|file| archive::import_zip(file, &args.into, &Policy::default(), args.dry_run));
    let mut stdout = std::io::stdout().lock();
    let zip = args.zip.display().to_string();
    let (imported, findings, error) = match result {
        Ok(imported) => (Some(imported), Vec::new(), None),
        Err(ArchiveError::Refused { findings }) => (None, findings, None),
        Err(other) => (None, Vec::new(), Some(ErrorBody::from(other))),
    };
    let ok = imported.is_some();
    match args.format {
        Format::Json => {
            let warnings = imported.as_ref().map_or(&findings[..], |i| &i.warnings[..]);
            let out = Output {
                zip,
                ok,
                dry_run: args.dry_run,
                imported: imported.as_ref(),
                findings: warnings,
                error,
            };
            serde_json::to_writer_pretty(&mut stdout, &out)?;
            writeln!(stdout)?;
        }
        Format::Text => match (&imported, &error) {
            (Some(imported), _) => print_imported(&mut stdout, &zip, imported)?,
            (None, Some(error)) => writeln!(stdout, "error {}: {}", error.code, error.message)?,
            (None, None) => print_refused(&mut stdout, &zip, &findings)?,
        },
    }
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn print_imported(out: &mut impl Write, zip: &str, imported: &Imported) -> std::io::Result<()> {
    for finding in &imported.warnings {
        print_finding(out, zip, finding)?;
    }
    let verb = match (imported.installed, imported.replaced) {
        (true, true) => "replaced",
        (true, false) => "imported",
        (false, true) => "dry run: would replace",
        (false, false) => "dry run: would import",
    };
    writeln!(
        out,
        "{verb} {} at {} ({} files, {} bytes)",
        imported.name,
        imported.target.display(),
        imported.files,
        imported.bytes
    )
}

fn print_refused(out: &mut impl Write, zip: &str, findings: &[Finding]) -> std::io::Result<()> {
    for finding in findings {
        print_finding(out, zip, finding)?;
    }
    let errors = findings.iter().filter(|f| f.is_error()).count();
    writeln!(out, "refused: {zip} was not imported ({errors} errors); nothing was written")
}

fn print_finding(out: &mut impl Write, zip: &str, f: &Finding) -> std::io::Result<()> {
    let location = if f.file.is_empty() { zip.to_string() } else { format!("{zip}:{}", f.location()) };
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

/// The import through the library of `data_dir`.
fn run_in_library(args: &Args, data_dir: &std::path::Path) -> anyhow::Result<ExitCode> {
    let options = LibraryOptions::in_data_dir(data_dir, args.into.clone(), None);
    let library = Library::open(options).map_err(ErrorBody::from)?;
    library.scan().map_err(ErrorBody::from)?;
    let report = library.import_zip_file(&args.zip, args.dry_run).map_err(ErrorBody::from)?;
    let mut stdout = std::io::stdout().lock();
    let zip = args.zip.display().to_string();
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut stdout, &report)?;
            writeln!(stdout)?;
        }
        Format::Text if report.refused.is_some() => print_refused(&mut stdout, &zip, &report.findings)?,
        Format::Text => {
            for finding in &report.findings {
                print_finding(&mut stdout, &zip, finding)?;
            }
            let name = report.name.as_deref().unwrap_or_default();
            match &report.version {
                Some(v) => writeln!(stdout, "imported {name} as version {} ({} files)", v.id, v.files)?,
                None => writeln!(stdout, "dry run: would import {name} ({} files)", report.files.len())?,
            }
        }
    }
    Ok(if report.refused.is_none() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
