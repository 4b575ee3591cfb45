//! `skillcase gc-blobs [--data-dir D] [--format text|json]`: removes the blob files that no
//! recorded version names (left behind by interrupted writes) and says what it freed. Versions
//! are kept forever and blobs are never collected silently: this command is the only way.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use skillcase_application::App;

use crate::format::Format;

/// Arguments of `skillcase gc-blobs`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The data directory holding the database and the blob store (default: the app's, or
    /// `$SKILLCASE_DATA_DIR`).
    #[arg(long, value_name = "D")]
    data_dir: Option<PathBuf>,
    /// `text` for people, `json` for scripts.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let report = App::block_on(async {
        let app = crate::workspace::open(args.data_dir, None).await?;
        anyhow::Ok(app.collect_blobs().await?)
    })?;
    let mut stdout = crate::terminal::output(args.format == Format::Text);
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut stdout, &report)?;
            writeln!(stdout)?;
        }
        Format::Text => writeln!(
            stdout,
            "removed {} unreferenced blob(s), {} byte(s) freed; {} blob(s) kept",
            report.removed, report.freed_bytes, report.kept
        )?,
    }
    Ok(ExitCode::SUCCESS)
}
