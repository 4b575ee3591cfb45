//! `skillcase update [NAME...] [--target AGENT...] (--user | --project DIR) [--yes] [--data-dir D]
//! [--format text|json]`: moves the pins of git-sourced skills, and only when asked. First it
//! shows, for every skill whose branch moved past its pin, the two commits and the diff of every
//! file that would change; then it moves them with `--yes`, or after a `y` on a terminal; without
//! either it moves nothing. A copy with changes of its own is held back.

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

use skillcase_application::install::{PinOutcome, PinUpdate};
use skillcase_application::App;

use crate::format::Format;
use crate::install::{refuse, Installed};

/// Arguments of `skillcase update`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skills to update (default: every git-sourced one).
    #[arg(value_name = "NAME")]
    names: Vec<String>,
    /// Move the pins without asking (what CI and scripts pass, after reading the diff).
    #[arg(long, short = 'y')]
    yes: bool,
    #[command(flatten)]
    installed: Installed,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let json = args.installed.format == Format::Json;
    let mut stdout = crate::terminal::output(!json);
    let app = App::block_on(crate::workspace::open(args.installed.data_dir.clone(), None))?;
    let pending = match App::block_on(app.git_updates(args.installed.targets(), args.names.clone())) {
        Ok(pending) => pending,
        Err(error) => return refuse(&mut stdout, json, &error),
    };
    if !json {
        print_pending(&mut stdout, &pending)?;
    }
    let confirmed = !pending.is_empty() && (args.yes || (!json && ask(&mut stdout, pending.len())?));
    let result = if confirmed { App::block_on(app.apply_git_updates(pending)) } else { Ok(pending) };
    let report = match result {
        Ok(report) => report,
        Err(error) => return refuse(&mut stdout, json, &error),
    };
    if json {
        serde_json::to_writer_pretty(&mut stdout, &serde_json::json!({ "updates": report }))?;
        writeln!(stdout)?;
    } else if confirmed {
        print_outcomes(&mut stdout, &report)?;
    } else if !report.is_empty() {
        writeln!(stdout, "nothing moved; run again with --yes to move {} pin(s)", report.len())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn short(commit: &str) -> &str {
    &commit[..12.min(commit.len())]
}

fn print_pending(out: &mut impl Write, pending: &[PinUpdate]) -> std::io::Result<()> {
    if pending.is_empty() {
        return writeln!(out, "every git-sourced skill is at its branch's newest commit");
    }
    for update in pending {
        let branch = update.reference.as_deref().unwrap_or("default branch");
        writeln!(
            out,
            "{}/{}: {} → {} ({} {branch})",
            update.dir,
            update.name,
            short(&update.from),
            short(&update.to),
            update.url
        )?;
        for change in &update.changes {
            match &change.patch {
                Some(patch) => write!(out, "{patch}")?,
                None => writeln!(out, "binary file {} {:?}", change.path, change.change)?,
            }
        }
    }
    Ok(())
}

/// Asks on a terminal whether to move `count` pins; anything but `y` or `yes` is no.
fn ask(out: &mut impl Write, count: usize) -> std::io::Result<bool> {
    if !std::io::stdin().is_terminal() {
        return Ok(false);
    }
    write!(out, "Move {count} pin(s) to the commits above? [y/N] ")?;
    out.flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    Ok(matches!(answer.trim().to_lowercase().as_str(), "y" | "yes"))
}

fn print_outcomes(out: &mut impl Write, done: &[PinUpdate]) -> std::io::Result<()> {
    for update in done {
        match update.outcome {
            Some(PinOutcome::Moved) => {
                writeln!(out, "{}/{}: moved to {}", update.dir, update.name, short(&update.to))?
            }
            Some(PinOutcome::HeldBack) => writeln!(
                out,
                "{}/{}: held back, it has changes of its own (adopt it or undo them, then update)",
                update.dir, update.name
            )?,
            None => {}
        }
    }
    Ok(())
}
