//! `skillcase migrate --to postgres://… [--data-dir D] [--format text|json]`: solo → team. Copies
//! this desktop's inbox (cases, timelines, outbox, agents, veto counts) into an empty team
//! database in one transaction and prints, per table, the rows copied and the checksum both
//! sides agree on — through the same application function the window offers.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use skillcase_application::App;

use crate::format::Format;

/// Arguments of `skillcase migrate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The empty team database to copy into (postgres://user:password@host/database).
    #[arg(long, value_name = "URL")]
    to: String,
    /// The data directory whose inbox to copy (default: the usual one).
    #[arg(long, value_name = "D")]
    data_dir: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let report = App::block_on(async {
        let app = crate::workspace::open(args.data_dir.clone(), None).await?;
        anyhow::Ok(app.copy_inbox_to_team(args.to.clone()).await?)
    })?;
    let mut stdout = crate::terminal::output(args.format == Format::Text);
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut stdout, &report)?;
            writeln!(stdout)?;
        }
        Format::Text => {
            for table in &report.tables {
                writeln!(stdout, "{:<16} {:>8} rows  sha256 {}", table.table, table.rows, table.sha256)?;
            }
            writeln!(stdout, "copied and verified; start Skillcase with --database or save it in Settings")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
