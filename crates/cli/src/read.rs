//! `skillcase read DIR NAME [--task T] [--format text|json]`: prints level 2, what
//! `read_skill(name, task)` returns. Exit 1 with `skill_not_found` or `skill_invalid` when the
//! skill cannot be served.

use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;
use skillcase_skill::disclosure::{activation, activation_plan, dir_reader, ActivationPlan};

use crate::format::Format;
use crate::skills;

/// Arguments of `skillcase read`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skills directory.
    dir: PathBuf,
    /// The skill's name (its folder name).
    name: String,
    /// The task in the agent's words; route keywords in it add and inline references.
    #[arg(long)]
    task: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Level 2 as printed in JSON: the text and the lists it was built from.
#[derive(Serialize)]
struct Output<'a> {
    name: &'a str,
    text: String,
    #[serde(flatten)]
    plan: ActivationPlan,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let skill = match skills::find(&args.dir, &args.name) {
        Ok(skill) => skill,
        Err(refusal) => return skills::refuse(args.format, refusal),
    };
    let task = args.task.as_deref();
    let text = match activation(&skill, task, &dir_reader(&skill, skills::max_read())) {
        Ok(text) => text,
        Err(err) => return skills::refuse(args.format, err.into()),
    };
    match args.format {
        Format::Text => println!("{text}"),
        Format::Json => {
            skills::print_json(&Output { name: &skill.name, text, plan: activation_plan(&skill, task) })?
        }
    }
    Ok(ExitCode::SUCCESS)
}
