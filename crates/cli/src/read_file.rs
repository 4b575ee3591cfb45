//! `skillcase read-file DIR NAME PATH [--format text|json]`: prints level 3, one support file's
//! text exactly (no newline added). Exit 1 with the refusal's code (`path_dot_segment`,
//! `file_not_in_skill`, `file_not_text`, `skill_not_found`, ...) otherwise.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;
use skillcase_skill::disclosure::{dir_reader, file};

use crate::format::Format;
use crate::skills;

/// Arguments of `skillcase read-file`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skills directory.
    dir: PathBuf,
    /// The skill's name (its folder name).
    name: String,
    /// The file, relative to the skill folder, inside a support folder (`references/a.md`).
    path: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Level 3 as printed in JSON.
#[derive(Serialize)]
struct Output<'a> {
    name: &'a str,
    path: &'a str,
    text: String,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let skill = match skills::find(&args.dir, &args.name) {
        Ok(skill) => skill,
        Err(refusal) => return skills::refuse(args.format, refusal),
    };
    let text = match file(&skill, &args.path, &dir_reader(&skill, skills::max_read())) {
        Ok(text) => text,
        Err(err) => return skills::refuse(args.format, err.into()),
    };
    match args.format {
        Format::Text => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(text.as_bytes())?;
            stdout.flush()?;
        }
        Format::Json => skills::print_json(&Output { name: &skill.name, path: &args.path, text })?,
    }
    Ok(ExitCode::SUCCESS)
}
