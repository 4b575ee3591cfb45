//! `skillcase guard MESSAGE`: would the guardrail see a promise of a human follow-up here?
//!
//! Prints `promise` or `clear` (or the whole detection as JSON) and exits 0 either way: a
//! promise is an answer, not a failure. Scripts test the word; people read the rule and words.

use crate::format::Format;
use std::process::ExitCode;

use clap::Args;

/// Arguments of `skillcase guard`.
#[derive(Debug, Args)]
pub struct GuardArgs {
    /// The message the agent is about to send.
    pub message: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

/// Runs the detector on the message and prints the answer.
pub fn run(args: GuardArgs) -> anyhow::Result<ExitCode> {
    let found = skillcase_guard::detect(&args.message);
    match args.format {
        Format::Text => println!("{}", if found.promise { "promise" } else { "clear" }),
        Format::Json => println!("{}", serde_json::to_string_pretty(&found)?),
    }
    Ok(ExitCode::SUCCESS)
}
