//! `skillcase export PATH [-o FILE.skill] [--data-dir D] [--format text|json]`: packs a skill
//! folder, or the library skill named PATH, into a `.skill` zip that Anthropic's upload and the
//! `claude` profile accept (one top-level folder named after the skill, OS junk and caches left
//! out), through the same application function as the window's *Export* button. FILE defaults to
//! `<name>.skill` in the current folder. Exit 0 when written, 1 when refused (every finding
//! printed; nothing written).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use skillcase_application::App;
use skillcase_common::ErrorBody;
use skillcase_skill::finding::Finding;

use crate::format::Format;

/// Arguments of `skillcase export`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A skill folder, or the name of a skill in the library.
    path: String,
    /// The package to write (default: `<name>.skill` in the current folder).
    #[arg(short = 'o', long = "output", value_name = "FILE.skill")]
    output: Option<PathBuf>,
    /// The data directory whose library a skill name is looked up in (default: the usual one).
    #[arg(long, value_name = "D")]
    data_dir: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let output =
        args.output.clone().unwrap_or_else(|| PathBuf::from(format!("{}.skill", default_stem(&args.path))));
    let result = App::block_on(async {
        let app = crate::workspace::open(args.data_dir, None).await?;
        anyhow::Ok(app.export_skill(args.path.clone(), output).await)
    })?;
    let mut stdout = crate::terminal::output(args.format == Format::Text);
    match (result, args.format) {
        (Ok(report), Format::Json) => serde_json::to_writer_pretty(&mut stdout, &report)?,
        (Ok(report), Format::Text) => {
            for w in &report.warnings {
                writeln!(stdout, "{} warning {}: {}", w.location(), w.code, w.message)?;
            }
            write!(
                stdout,
                "exported {} to {} ({} files, {} bytes)",
                report.name, report.path, report.files, report.bytes
            )?;
        }
        (Err(error), Format::Json) => {
            serde_json::to_writer_pretty(&mut stdout, &serde_json::json!({ "error": error }))?
        }
        (Err(error), Format::Text) => {
            for f in findings_of(&error) {
                writeln!(stdout, "{} error {}: {}", f.location(), f.code, f.message)?;
                if let Some(hint) = &f.hint {
                    writeln!(stdout, "  hint: {hint}")?;
                }
            }
            writeln!(stdout, "error {}: {}", error.code, error.message)?;
            return Ok(ExitCode::from(1));
        }
    }
    writeln!(stdout)?;
    Ok(ExitCode::SUCCESS)
}

/// The findings a refusal carries in `details.findings`.
fn findings_of(error: &ErrorBody) -> Vec<Finding> {
    let listed = error.details.as_ref().and_then(|d| d.get("findings")).cloned();
    listed.and_then(|f| serde_json::from_value(f).ok()).unwrap_or_default()
}

/// The file stem the package is named after when `-o` is not given: the folder's (or name's)
/// last component, which an exportable skill's name equals.
fn default_stem(path: &str) -> String {
    let trimmed = path.trim_end_matches(['/', '\\']);
    std::path::Path::new(trimmed).file_name().and_then(|n| n.to_str()).unwrap_or("skill").to_string()
}
