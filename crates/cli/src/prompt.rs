//! `skillcase prompt DIR [--format agentskills|skillcase] [--budget N] [--output text|json]`:
//! prints level 1 for the valid, visible skills of DIR. With `--format agentskills` the text is
//! byte-identical to `skills-ref to-prompt` for the same skills in name order (one trailing
//! newline, as its CLI prints). `--output json` prints the text with each skill's position,
//! size and whether the budget cut it. With `--client claude-code|codex` it prints that client's
//! own skill listing instead (its line format, entry cap and budget rules; `--format` is then
//! not used), and the JSON adds each skill's fate and the listing's tokens (`o200k_base`).

use std::path::PathBuf;
use std::process::ExitCode;

use skillcase_skill::clients::{self, AgentClient};
use skillcase_skill::disclosure::{index, IndexFormat, DEFAULT_BUDGET};

use crate::format::Format;
use crate::skills;

/// Arguments of `skillcase prompt`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A skills directory (its subfolders are skills) or one skill folder.
    dir: PathBuf,
    /// Index format: agentskills (the reference format) or skillcase.
    #[arg(long, default_value = "skillcase", value_parser = parse_format)]
    format: IndexFormat,
    /// Character budget of the whole index.
    #[arg(long, default_value_t = DEFAULT_BUDGET)]
    budget: usize,
    /// Print the listing of this agent client instead of Skillcase's index.
    #[arg(long, value_parser = parse_client)]
    client: Option<AgentClient>,
    /// Print the text alone, or JSON with the per-skill entries.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    output: Format,
}

fn parse_format(s: &str) -> Result<IndexFormat, String> {
    s.parse().map_err(|e: skillcase_skill::disclosure::UnknownIndexFormat| e.to_string())
}

fn parse_client(s: &str) -> Result<AgentClient, String> {
    s.parse().map_err(|e: skillcase_skill::clients::UnknownClient| e.to_string())
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let skills = skills::load_valid(&args.dir)?;
    if let Some(client) = args.client {
        let listed: Vec<_> = skills.iter().map(|s| clients::listed(client, s)).collect();
        let rendered = clients::listing(client, &listed, args.budget);
        match args.output {
            Format::Text => println!("{}", rendered.text),
            Format::Json => skills::print_json(&rendered)?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    let rendered = index(&skills, args.format, args.budget);
    match args.output {
        Format::Text => println!("{}", rendered.text),
        Format::Json => skills::print_json(&rendered)?,
    }
    Ok(ExitCode::SUCCESS)
}
