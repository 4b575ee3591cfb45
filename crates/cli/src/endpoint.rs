//! `skillcase endpoint`: show or set where replies are delivered (the agent endpoint of SPEC B3),
//! for scripts and test rigs that configure a data directory without the window.

use std::io::Write;
use std::process::ExitCode;

use skillcase_application::App;
use skillcase_cases::endpoint::{EndpointInput, EndpointView};

use crate::format::Format;

/// Show the agent endpoint, or set it with `set`.
#[derive(Debug, clap::Args)]
pub struct EndpointArgs {
    #[command(subcommand)]
    action: Option<Action>,
    /// text (default) or json.
    #[arg(long, value_enum, default_value = "text", global = true)]
    format: Format,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Print the configured endpoint (never its secret).
    Show,
    /// Save the endpoint (validated like Settings does); the running worker uses it at once.
    Set {
        /// Where replies are POSTed (http or https).
        #[arg(long)]
        url: String,
        /// The signing secret (`whsec_...`); omitted keeps the stored one.
        #[arg(long)]
        secret: Option<String>,
        /// Seconds before an attempt times out (default 10).
        #[arg(long)]
        timeout_secs: Option<u32>,
        /// Attempts before a delivery is dead (default 15).
        #[arg(long)]
        max_attempts: Option<u32>,
        /// Save it switched off: replies wait in the outbox.
        #[arg(long)]
        disabled: bool,
    },
}

/// Prints or saves the endpoint of the data directory's database. A refused setting exits 1
/// with its code.
pub fn run(args: EndpointArgs) -> anyhow::Result<ExitCode> {
    let result = App::block_on(async {
        let app = crate::workspace::open(None, None).await?;
        anyhow::Ok(match args.action.unwrap_or(Action::Show) {
            Action::Show => app.endpoint().await,
            Action::Set { url, secret, timeout_secs, max_attempts, disabled } => {
                let input = EndpointInput { url, secret, timeout_secs, max_attempts, enabled: !disabled };
                app.set_endpoint(input).await.map(Some)
            }
        })
    })?;
    match result {
        Ok(view) => {
            print_view(view.as_ref(), args.format)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(body) => {
            match args.format {
                Format::Json => println!("{}", serde_json::to_string(&serde_json::json!({ "error": body }))?),
                Format::Text => {
                    writeln!(crate::terminal::stderr(), "refused ({}): {}", body.code, body.message)?
                }
            }
            Ok(ExitCode::from(1))
        }
    }
}

fn print_view(view: Option<&EndpointView>, format: Format) -> anyhow::Result<()> {
    match (format, view) {
        (Format::Json, view) => println!("{}", serde_json::to_string(&view)?),
        (Format::Text, None) => println!("no agent endpoint configured"),
        (Format::Text, Some(v)) => writeln!(
            crate::terminal::stdout(),
            "{} ({}, timeout {} s, {} attempts, secret {})",
            v.url,
            if v.enabled { "enabled" } else { "disabled" },
            v.timeout_secs,
            v.max_attempts,
            if v.has_secret { "set" } else { "missing" }
        )?,
    }
    Ok(())
}
