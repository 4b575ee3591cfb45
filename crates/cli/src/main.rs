//! `skillcase`: the headless face of the engine, for scripts, CI pipelines and benchmarks.
//!
//! Exit codes: 0 success, 1 a finding or refusal, 2 bad usage (clap's own exit code).

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod adopt;
mod agents;
mod cases;
mod catalogs;
mod edit;
mod endpoint;
mod export;
mod format;
mod gc_blobs;
mod guard;
mod import;
mod install;
mod inventory;
mod junit;
#[path = "match.rs"]
mod match_cmd;
mod mcp;
mod migrate;
mod prompt;
mod read;
mod read_file;
mod sarif;
mod scan;
mod serve;
mod skills;
mod sync;
mod teach;
mod team;
mod terminal;
mod test;
mod token;
mod update;
mod validate;
mod verify;
mod workspace;

/// Validate, preview and serve Agent Skills; answer the support cases the AI opens.
#[derive(Debug, Parser)]
#[command(name = "skillcase", version, about, long_about = None)]
struct Cli {
    /// The team inbox's PostgreSQL (postgres://user:password@host/database) for the commands that
    /// work on cases; default: $SKILLCASE_DATABASE_URL, else the one saved in Settings, else the
    /// embedded database.
    #[arg(long, global = true, value_name = "URL")]
    database: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print where Skillcase keeps its data and which skills directory it uses.
    Info,
    /// Serve the local agent API on 127.0.0.1 until interrupted.
    Serve(serve::ServeArgs),
    /// Serve MCP over stdin/stdout for an agent's host (Claude Desktop, Claude Code, Codex, ...).
    Mcp(mcp::McpArgs),
    /// Print the local API's bearer token (`--rotate` replaces it first).
    Token(token::TokenArgs),
    /// Validate skill folders against a profile (standard, claude, skillcase, claude-code or codex).
    Validate(validate::Args),
    /// Pack a skill folder or a library skill into a .skill zip that Anthropic's upload accepts.
    Export(export::Args),
    /// Copy skills into agents' skills folders (.agents/skills, .claude/skills, ...) and record them in skillcase.lock.
    Install(install::Args),
    /// List the agents Skillcase installs into, with their folders; those on this machine marked.
    Agents(agents::Args),
    /// Record skill folders already in agents' folders in skillcase.lock, as they are, to track them.
    Adopt(adopt::Args),
    /// Copy again the installed skills that drifted or whose source moved ahead; nothing else.
    Sync(sync::Args),
    /// Move the pins of git-sourced skills to their branch's newest commit, after showing the diff.
    Update(update::Args),
    /// Exit 1 when an installed skill drifted from skillcase.lock or is outdated (for CI).
    Verify(verify::Args),
    /// Subscribe to remote catalogs (a JSON index or an MCP skills server), pull them, install their skills.
    Catalogs(catalogs::Args),
    /// List every library skill with origin, version, digest, source and where it is installed.
    Inventory(inventory::Args),
    /// Scan skills for secrets, download-and-run lines, hidden Unicode and instructions, suspicious links, exec bits.
    Scan(scan::Args),
    /// Import a skill package (.zip) into a skills directory, refusing unsafe archives.
    Import(import::Args),
    /// Print level 1, the index of available skills, for a skills directory.
    Prompt(prompt::Args),
    /// Print level 2, what the agent receives when it reads a skill.
    Read(read::Args),
    /// Print level 3, one support file of a skill.
    ReadFile(read_file::Args),
    /// Show which skills a customer message fires (hard or probe).
    Match(match_cmd::Args),
    /// Run the skills' trigger cases (skill.triggers.json): failures, precision, recall, conflicts.
    Test(test::Args),
    /// Replace one file of a skill through the library (validated first; internal, for tests and scripts).
    #[command(hide = true)]
    Edit(edit::Args),
    /// Remove the stored file blobs no skill version names, and say what was freed.
    GcBlobs(gc_blobs::Args),
    /// Work the inbox: list, show, reply to and note on the cases the AI opened.
    Cases(cases::CasesArgs),
    /// Show or set the agent endpoint that replies are delivered to.
    Endpoint(endpoint::EndpointArgs),
    /// Copy this desktop's inbox (cases, timelines, outbox, agents) into an empty team database.
    Migrate(migrate::Args),
    /// The team database's roles and people (init, add-person), and the check of its history (verify).
    Team(team::TeamArgs),
    /// Print `promise` when MESSAGE promises that a person will follow up, else `clear`; or teach the guardrail (mark, marks, retrain).
    Guard(guard::GuardArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            let _ = writeln!(terminal::stderr(), "error: {err:#}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    workspace::use_database(cli.database);
    match cli.command {
        Command::Info => {
            let info = skillcase_application::App::block_on(async {
                anyhow::Ok(workspace::open(None, None).await?.info(None))
            })?;
            println!("{}", serde_json::to_string_pretty(&info)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve(args) => serve::run(args),
        Command::Mcp(args) => mcp::run(args),
        Command::Token(args) => token::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Import(args) => import::run(args),
        Command::Scan(args) => scan::run(args),
        Command::Export(args) => export::run(args),
        Command::Install(args) => install::run(args),
        Command::Agents(args) => agents::run(args),
        Command::Adopt(args) => adopt::run(args),
        Command::Sync(args) => sync::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Update(args) => update::run(args),
        Command::Catalogs(args) => catalogs::run(args),
        Command::Inventory(args) => inventory::run(args),
        Command::Prompt(args) => prompt::run(args),
        Command::Read(args) => read::run(args),
        Command::ReadFile(args) => read_file::run(args),
        Command::Match(args) => match_cmd::run(args),
        Command::Test(args) => test::run(args),
        Command::Guard(args) => guard::run(args),
        Command::Team(args) => team::run(args),
        Command::Edit(args) => edit::run(args),
        Command::GcBlobs(args) => gc_blobs::run(args),
        Command::Endpoint(args) => endpoint::run(args),
        Command::Cases(args) => cases::run(args),
        Command::Migrate(args) => migrate::run(args),
    }
}
