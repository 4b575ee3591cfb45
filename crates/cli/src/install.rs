//! `skillcase install NAME|PATH... --target AGENT... (--user | --project DIR) [--data-dir D]
//! [--force] [--format text|json]`: copies each skill (a skill folder, or the library skill of
//! that name) into the skills folder of every agent named, at user level or in a project, and
//! records it in that folder's `skillcase.lock`, through the same application function as the
//! window's *Install to agents*. Exit 0 when every skill is installed, 1 at the first refusal
//! (the skills before it stay installed).
//!
//! Also the target switches `sync` and `verify` share ([`Level`], [`agent_parser`]).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use skillcase_application::install::{folder_groups, InstallReport, InstallTarget};
use skillcase_application::App;
use skillcase_common::ErrorBody;
use skillcase_library::install::{Agent, SkillSource};
use skillcase_skill::finding::Finding;

use crate::format::Format;

/// Arguments of `skillcase install`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skill folders, names of skills in the library, or git sources (`git+URL`, `git+URL#branch`,
    /// `git+URL@commit`).
    #[arg(required = true, value_name = "NAME|PATH|git+URL")]
    skills: Vec<String>,
    /// With a git source: install only this skill of the repository (repeatable; default: all).
    #[arg(long = "skill", value_name = "NAME")]
    only: Vec<String>,
    /// An agent to install for, by id (repeatable; `skillcase agents` lists them). Agents that
    /// read the same folder get one copy.
    #[arg(long = "target", value_name = "AGENT", value_parser = agent_parser(), required_unless_present = "all")]
    targets: Vec<Agent>,
    /// Every agent detected on this machine (as `skillcase agents` marks them).
    #[arg(long, conflicts_with = "targets")]
    all: bool,
    #[command(flatten)]
    level: Level,
    /// Replace a folder of the same name that Skillcase did not install.
    #[arg(long)]
    force: bool,
    /// One copy in the shared .agents/skills at that level, and links to it from the folders of
    /// agents that follow linked skill folders (copies for the others).
    #[arg(long)]
    link: bool,
    /// The data directory whose library a skill name is looked up in (default: the usual one).
    #[arg(long, value_name = "D")]
    data_dir: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// User level or one project folder: exactly one of them.
#[derive(Debug, clap::Args)]
#[group(required = true, multiple = false)]
pub struct Level {
    /// The agents' folders under the home folder (`~/.claude/skills`, `~/.agents/skills`, ...).
    #[arg(long)]
    user: bool,
    /// The agents' folders in the project folder DIR (`DIR/.agents/skills`, `DIR/.claude/skills`, ...).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
}

impl Level {
    /// Each agent's target at this level.
    pub fn targets(&self, agents: &[Agent]) -> Vec<InstallTarget> {
        let project = self.project.as_ref().filter(|_| !self.user).map(|p| p.display().to_string());
        agents.iter().map(|&agent| InstallTarget { agent, project: project.clone() }).collect()
    }
}

/// What `sync` and `verify` look at: the lock files of these agents' folders at one level, with
/// the library their library skills came from.
#[derive(Debug, clap::Args)]
pub struct Installed {
    /// An agent whose folder to look at (repeatable; default: every agent's).
    #[arg(long = "target", value_name = "AGENT", value_parser = agent_parser())]
    targets: Vec<Agent>,
    #[command(flatten)]
    level: Level,
    /// The data directory whose library the installed library skills come from (to tell
    /// `outdated`).
    #[arg(long, value_name = "D")]
    pub data_dir: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

impl Installed {
    /// The folders to look at: every agent's when none was named (one per folder).
    pub fn targets(&self) -> Vec<InstallTarget> {
        let agents = if self.targets.is_empty() {
            folder_groups(self.level.project.is_some() && !self.level.user)
                .iter()
                .map(|g| g.first())
                .collect()
        } else {
            self.targets.clone()
        };
        self.level.targets(&agents)
    }
}

/// Parses an agent by its id (or a former name), pointing at `skillcase agents` when unknown.
pub fn agent_parser() -> impl clap::builder::TypedValueParser<Value = Agent> {
    |id: &str| {
        Agent::find(id)
            .ok_or_else(|| format!("unknown agent `{id}`; `skillcase agents` lists the known ones"))
    }
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (installed, error) = App::block_on(async {
        let app = crate::workspace::open(args.data_dir.clone(), None).await?;
        let agents = if args.all { detected() } else { args.targets.clone() };
        let targets = args.level.targets(&agents);
        let mut installed = Vec::new();
        for skill in &args.skills {
            let done = if skill.starts_with("git+") {
                app.install_git(skill.clone(), args.only.clone(), targets.clone(), args.force, args.link)
                    .await
            } else if args.link {
                app.install_skill_linked(skill.clone(), targets.clone(), args.force).await.map(|r| vec![r])
            } else {
                app.install_skill(skill.clone(), targets.clone(), args.force).await.map(|r| vec![r])
            };
            match done {
                Ok(reports) => installed.extend(reports),
                Err(error) => return anyhow::Ok((installed, Some(error))),
            }
        }
        anyhow::Ok((installed, None))
    })?;
    let mut stdout = crate::terminal::output(args.format == Format::Text);
    match args.format {
        Format::Json => {
            let mut doc = serde_json::json!({ "installed": installed });
            if let Some(error) = &error {
                doc["error"] = serde_json::to_value(error)?;
            }
            serde_json::to_writer_pretty(&mut stdout, &doc)?;
            writeln!(stdout)?;
        }
        Format::Text => {
            for report in &installed {
                print_report(&mut stdout, report)?;
            }
            if let Some(error) = &error {
                print_error(&mut stdout, error)?;
            }
        }
    }
    Ok(if error.is_some() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The agents detected on this machine, for `--all`.
fn detected() -> Vec<Agent> {
    skillcase_application::install::agents().into_iter().filter(|a| a.detected).map(|a| a.id).collect()
}

fn print_report(out: &mut impl Write, report: &InstallReport) -> std::io::Result<()> {
    let version = match &report.source {
        SkillSource::Git { commit, .. } => format!(" (commit {})", &commit[..12.min(commit.len())]),
        _ => report.version.map(|v| format!(" (library version {v})")).unwrap_or_default(),
    };
    for place in &report.places {
        let kept = if place.kept.is_empty() {
            String::new()
        } else {
            format!(", kept your {}", place.kept.join(", "))
        };
        let replaced = if place.replaced { format!(", replaced{kept}") } else { String::new() };
        if place.linked {
            writeln!(
                out,
                "linked {} into {}/{} (to the copy in .agents/skills{replaced})",
                report.name, place.dir, report.name
            )?;
            continue;
        }
        writeln!(
            out,
            "installed {}{version} into {}/{} ({} files{replaced})",
            report.name, place.dir, report.name, report.files
        )?;
    }
    Ok(())
}

/// Prints a refusal the way `--format` asks (`{"error": …}` for JSON) and answers exit code 1.
pub fn refuse(out: &mut impl Write, json: bool, error: &ErrorBody) -> anyhow::Result<ExitCode> {
    if json {
        serde_json::to_writer_pretty(&mut *out, &serde_json::json!({ "error": error }))?;
        writeln!(out)?;
    } else {
        print_error(out, error)?;
    }
    Ok(ExitCode::from(1))
}

/// A refusal as the other subcommands print one: each finding behind it, then `error code: message`.
pub fn print_error(out: &mut impl Write, error: &ErrorBody) -> std::io::Result<()> {
    let listed = error.details.as_ref().and_then(|d| d.get("findings")).cloned();
    let findings: Vec<Finding> = listed.and_then(|f| serde_json::from_value(f).ok()).unwrap_or_default();
    for f in findings {
        writeln!(out, "{} error {}: {}", f.location(), f.code, f.message)?;
    }
    writeln!(out, "error {}: {}", error.code, error.message)
}
