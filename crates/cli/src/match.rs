//! `skillcase match DIR MESSAGE [--format text|json]`: which valid skills of DIR a customer
//! message fires (SPEC A7). Text prints one `trigger name keyword` line per skill, or
//! `no skill fires`; JSON prints the list. Exit 0 either way: no match is an answer, not a refusal.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use skillcase_skill::matcher::match_message;

use crate::format::Format;
use crate::skills;

/// Arguments of `skillcase match`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skills directory.
    dir: PathBuf,
    /// The customer's message.
    message: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let skills = skills::load_valid(&args.dir)?;
    let matches = match_message(&skills, &args.message);
    match args.format {
        Format::Json => skills::print_json(&matches)?,
        Format::Text if matches.is_empty() => println!("no skill fires"),
        Format::Text => {
            let mut out = crate::terminal::stdout();
            for m in &matches {
                writeln!(out, "{} {} (keyword: {})", m.trigger.as_str(), m.name, m.keyword)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
