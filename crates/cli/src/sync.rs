//! `skillcase sync [--target AGENT...] (--user | --project DIR) [--data-dir D] [--format
//! text|json]`: brings every skill the targets' `skillcase.lock` files list back to its source —
//! copied again when its installed files drifted or its source moved ahead, left alone
//! otherwise — and never touches a folder a lock does not list. Without `--target`, all five
//! agents' folders at that level. Exit 0 when done (a skill whose source is missing is
//! reported, not an error), 1 on an error.

use std::io::Write;
use std::process::ExitCode;

use skillcase_application::App;
use skillcase_library::install::SyncOutcome;

use crate::format::Format;
use crate::install::{print_error, Installed};

/// Arguments of `skillcase sync`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    installed: Installed,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let targets = args.installed.targets();
    let result = App::block_on(async {
        let app = crate::workspace::open(args.installed.data_dir.clone(), None).await?;
        anyhow::Ok(app.sync_installs(targets).await)
    })?;
    let mut stdout = crate::terminal::output(args.installed.format == Format::Text);
    let report = match (result, args.installed.format) {
        (Err(error), Format::Json) => {
            serde_json::to_writer_pretty(&mut stdout, &serde_json::json!({ "error": error }))?;
            writeln!(stdout)?;
            return Ok(ExitCode::from(1));
        }
        (Err(error), Format::Text) => {
            print_error(&mut stdout, &error)?;
            return Ok(ExitCode::from(1));
        }
        (Ok(report), Format::Json) => {
            serde_json::to_writer_pretty(&mut stdout, &report)?;
            writeln!(stdout)?;
            return Ok(ExitCode::SUCCESS);
        }
        (Ok(report), Format::Text) => report,
    };
    let mut counts = [0usize; 5];
    for target in &report.targets {
        for skill in &target.skills {
            let (slot, word) = match skill.outcome {
                SyncOutcome::Unchanged => (0, "unchanged"),
                SyncOutcome::Updated => (1, "updated"),
                SyncOutcome::Repaired => (2, "repaired"),
                SyncOutcome::SourceMissing => (3, "source missing, left as it is"),
                SyncOutcome::HeldBack => (4, "held back: its source moved ahead but it has changes of its own (adopt it or undo them, then sync)"),
            };
            counts[slot] += 1;
            let drift: Vec<String> =
                skill.drift.iter().map(|d| format!("{} {}", d.path, kind(d.kind))).collect();
            let drift = if drift.is_empty() { String::new() } else { format!(" ({})", drift.join(", ")) };
            let kept = if skill.kept.is_empty() {
                String::new()
            } else {
                format!("; kept {}", skill.kept.join(", "))
            };
            writeln!(stdout, "{}/{}: {word}{drift}{kept}", target.dir, skill.name)?;
        }
    }
    for target in &report.targets {
        for other in &target.others {
            writeln!(stdout, "{}, left to that tool", other_line(&target.dir, other))?;
        }
    }
    writeln!(
        stdout,
        "synced {} skills: {} updated, {} repaired, {} unchanged, {} source missing, {} held back",
        counts.iter().sum::<usize>(),
        counts[1],
        counts[2],
        counts[0],
        counts[3],
        counts[4]
    )?;
    Ok(ExitCode::SUCCESS)
}

/// A skill another tool installed, as `sync` and `verify` print it: where, whose lock, its
/// source and how it stands.
pub fn other_line(dir: &str, other: &skillcase_library::install::ecosystem::OtherInstall) -> String {
    use skillcase_library::install::ecosystem::OtherState;
    let state = match other.state {
        OtherState::InSync => "in sync",
        OtherState::Drifted => "changed since it was installed",
        OtherState::Unchecked => "not checked (its lock has no folder hash Skillcase computes)",
    };
    format!(
        "{dir}/{}: installed by the skills CLI from {} ({}), {state}",
        other.name, other.source, other.source_type
    )
}

/// A drift kind as the text output names it.
pub fn kind(kind: skillcase_library::install::DriftKind) -> &'static str {
    use skillcase_library::install::DriftKind;
    match kind {
        DriftKind::Modified => "modified",
        DriftKind::Added => "added",
        DriftKind::Missing => "missing",
        DriftKind::Unreadable => "unreadable",
        DriftKind::Link => "link gone or pointing elsewhere",
    }
}
