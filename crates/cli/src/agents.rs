//! `skillcase agents [--format text|json]`: the agents table Skillcase installs into — each
//! agent's id, name, project folder and user folder — with the agents installed on this machine
//! marked, so a person knows which `--target` ids to pass (or what `install --all` would pick).

use std::io::Write;
use std::process::ExitCode;

use skillcase_application::install::{agents, AgentHost};

/// Arguments of `skillcase agents`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only the agents detected on this machine.
    #[arg(long)]
    detected: bool,
    /// Output format (`markdown`: the table `docs/install.md` prints, without detection).
    #[arg(long, value_enum, default_value_t = AgentsFormat::Text)]
    format: AgentsFormat,
}

/// `--format`: the usual two and the documentation's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum AgentsFormat {
    Text,
    Json,
    Markdown,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let table: Vec<AgentHost> = agents().into_iter().filter(|a| a.detected || !args.detected).collect();
    let mut stdout = crate::terminal::output(args.format == AgentsFormat::Text);
    match args.format {
        AgentsFormat::Json => {
            serde_json::to_writer_pretty(&mut stdout, &serde_json::json!({ "agents": table }))?;
            writeln!(stdout)?;
        }
        AgentsFormat::Text => print_table(&mut stdout, &table)?,
        AgentsFormat::Markdown => write!(stdout, "{}", markdown(&table))?,
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

/// The agents table as Markdown, one row per agent in the table's order: what `docs/install.md`
/// shows between its `agents-table` markers (a test keeps the two equal).
pub fn markdown(table: &[AgentHost]) -> String {
    let mut out = String::from(
        "| id | agent | project folder | user install | also reads | links | detected by | sources |\n|---|---|---|---|---|---|---|---|\n",
    );
    for agent in table {
        let code = |text: &str| format!("`{text}`");
        let user =
            agent.user_folder.as_deref().map_or("(projects only)".to_string(), |f| code(&format!("~/{f}")));
        let install = agent.user_folder.as_deref().map(|f| format!("~/{f}"));
        let also: Vec<String> = agent
            .user_folders
            .iter()
            .filter(|f| Some(f.as_str()) != install.as_deref())
            .map(|f| code(f))
            .collect();
        let links = match agent.follows_links {
            Some(true) => "yes",
            Some(false) => "no",
            None => "?",
        };
        let detect: Vec<String> = skillcase_library::install::Agent::find(agent.id.as_str())
            .map(|a| a.info().detect.iter().map(|d| code(d)).collect())
            .unwrap_or_default();
        let sources: Vec<String> =
            agent.source.split(" ; ").enumerate().map(|(i, url)| format!("[{}]({url})", i + 1)).collect();
        out.push_str(&format!(
            "| `{}` | {} | `{}` | {user} | {} | {links} | {} | {} |\n",
            agent.id.as_str(),
            agent.name.replace('|', "\\|"),
            agent.project_folder,
            also.join(", "),
            detect.join(", "),
            sources.join(" ")
        ));
    }
    out
}
