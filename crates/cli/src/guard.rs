//! `skillcase guard MESSAGE`: would the guardrail see a promise of a human follow-up here, and
//! when would it fall due? And `skillcase guard mark|unmark|marks|retrain|reset`: teaching the
//! workspace's guardrail with people's marks, over the same application functions as the window
//! ([`crate::teach`]).
//!
//! Prints `promise` or `clear` (or the whole detection as JSON) and exits 0 either way: a
//! promise is an answer, not a failure. It judges with the workspace's model (the one a retrain
//! adopted, in the data directory or on its team database) when the data directory has a
//! database, else with the shipped one; it never creates a data directory. Scripts test the first word; people read the rule and
//! words. When the promise names a time, a second line says when it falls due, read as the
//! ledger reads it: in the business calendar of `--zone` (the system's by default), with that
//! country's national holidays, said at `--at` (now by default).

use crate::format::Format;
use std::process::ExitCode;

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use clap::Args;
use skillcase_guard::due::{due_for, Calendar, CalendarSettings};
use skillcase_guard::model::Model;

/// Arguments of `skillcase guard`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct GuardArgs {
    #[command(subcommand)]
    pub teach: Option<crate::teach::Teach>,
    /// The message the agent is about to send.
    #[arg(required = true)]
    pub message: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// The time zone the due time is counted in, an IANA name (`America/Sao_Paulo`); the
    /// system's by default.
    #[arg(long)]
    pub zone: Option<String>,
    /// The country whose national holidays are days off (`BR`, `US`); the zone's by default.
    #[arg(long)]
    pub country: Option<String>,
    /// When the message is sent, local time in the zone (`2026-12-01T10:00`); now by default.
    #[arg(long)]
    pub at: Option<String>,
    /// The data directory whose guardrail model to judge with (default: the usual one).
    #[arg(long, value_name = "D")]
    pub data_dir: Option<std::path::PathBuf>,
}

/// Runs the detector on the message and prints the answer and, for a promise, its due time.
pub fn run(args: GuardArgs) -> anyhow::Result<ExitCode> {
    if let Some(teach) = args.teach {
        return crate::teach::run(teach);
    }
    let message = args.message.unwrap_or_default();
    let found = match workspace_model(args.data_dir)? {
        Some(model) => skillcase_guard::detect_with(&model, &message),
        None => skillcase_guard::detect(&message),
    };
    let settings =
        CalendarSettings { time_zone: args.zone, country: args.country, ..CalendarSettings::default() };
    let calendar =
        Calendar::from_settings(&settings).map_err(|e| anyhow::anyhow!("invalid calendar: {e}"))?;
    let now = match &args.at {
        Some(at) => at
            .parse::<jiff::civil::DateTime>()
            .context("--at takes a local date and time such as 2026-12-01T10:00")?
            .to_zoned_datetime(calendar.time_zone().clone())?,
        None => jiff::ZonedDateTime::now().with_time_zone(calendar.time_zone().clone()),
    };
    let due = if found.promise { due_for(&message, &found, &now, &calendar) } else { None };
    match args.format {
        Format::Text => {
            println!("{}", if found.promise { "promise" } else { "clear" });
            if let Some(due) = &due {
                println!("due {} ({:?})", due.at.strftime("%a %Y-%m-%d %H:%M %Z"), due.expression.text);
            }
        }
        Format::Json => {
            let mut json = serde_json::to_value(&found)?;
            json["due"] = serde_json::to_value(&due)?;
            println!("{}", serde_json::to_string_pretty(&json)?);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The workspace's model, when the data directory has a database (else the shipped one judges).
fn workspace_model(data_dir: Option<PathBuf>) -> anyhow::Result<Option<Arc<Model>>> {
    let dir = match data_dir {
        Some(dir) => dir,
        None => skillcase_application::paths::data_dir()?,
    };
    if !skillcase_application::paths::has_database(&dir) {
        return Ok(None);
    }
    let model = skillcase_application::App::block_on(async {
        let app = crate::workspace::open(Some(dir), None).await?;
        anyhow::Ok(app.guard_model_in_use().await.map_err(|e| anyhow::anyhow!("{}: {}", e.code, e.message))?)
    })?;
    Ok(Some(model))
}
