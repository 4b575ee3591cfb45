//! `skillcase agents [--format text|json]`: the agents table Skillcase installs into — each
//! agent's id, name, project folder and user folder — with the agents installed on this machine
//! marked, so a person knows which `--target` ids to pass (or what `install --all` would pick).

use std::io::Write;
use std::process::ExitCode;

use skillcase_application::install::{agents, AgentHost};

use crate::format::Format;

/// Arguments of `skillcase agents`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only the agents detected on this machine.
    #[arg(long)]
    detected: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let table: Vec<AgentHost> = agents().into_iter().filter(|a| a.detected || !args.detected).collect();
    let mut stdout = crate::terminal::output(args.format == Format::Text);
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut stdout, &serde_json::json!({ "agents": table }))?;
            writeln!(stdout)?;
        }
        Format::Text => print_table(&mut stdout, &table)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// One line per agent: `*` when detected, then id, name, project folder and user folder.
fn print_table(out: &mut impl Write, table: &[AgentHost]) -> std::io::Result<()> {
    let id_width = table.iter().map(|a| a.id.as_str().len()).max().unwrap_or(0);
    let name_width = table.iter().map(|a| a.name.len()).max().unwrap_or(0);
    let project_width = table.iter().map(|a| a.project_folder.len()).max().unwrap_or(0);
    for agent in table {
        let mark = if agent.detected { "*" } else { " " };
        let user = agent.user_folder.as_deref().map_or("(projects only)".to_string(), |f| format!("~/{f}"));
        writeln!(
            out,
            "{mark} {:id_width$}  {:name_width$}  {:project_width$}  {user}",
            agent.id.as_str(),
            agent.name,
            agent.project_folder
        )?;
    }
    let detected = table.iter().filter(|a| a.detected).count();
    writeln!(out, "{} agents, {detected} detected on this machine (*)", table.len())
}
