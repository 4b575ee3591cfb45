//! `skillcase verify [--target AGENT...] (--user | --project DIR) [--data-dir D] [--format
//! text|json]`: for CI pipelines, checks every skill the targets' `skillcase.lock` files list
//! and writes nothing. Each drifted file is printed (`modified`, `added`, `missing`), and each
//! skill whose source moved ahead since the copy as `outdated`. Exit 0 when clean, 1 on any
//! drift or outdated skill (or an error). Without `--target`, all five agents' folders.

use std::io::Write;
use std::process::ExitCode;

use skillcase_application::App;
use skillcase_library::install::ecosystem::OtherState;
use skillcase_library::install::SourceState;

use crate::format::Format;
use crate::install::{refuse, Installed};
use crate::sync::kind;

/// Arguments of `skillcase verify`.
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
        anyhow::Ok(app.verify_installs(targets).await)
    })?;
    let mut stdout = crate::terminal::output(args.installed.format == Format::Text);
    let report = match result {
        Ok(report) => report,
        Err(error) => return refuse(&mut stdout, args.installed.format == Format::Json, &error),
    };
    let code = if report.clean { ExitCode::SUCCESS } else { ExitCode::from(1) };
    if args.installed.format == Format::Json {
        serde_json::to_writer_pretty(&mut stdout, &report)?;
        writeln!(stdout)?;
        return Ok(code);
    }
    let (mut checked, mut drifted, mut outdated) = (0, 0, 0);
    for target in &report.targets {
        for skill in &target.skills {
            checked += 1;
            drifted += usize::from(!skill.drift.is_empty());
            for d in &skill.drift {
                writeln!(stdout, "{}/{}/{}: {}", target.dir, skill.name, d.path, kind(d.kind))?;
            }
            if skill.source == SourceState::Changed {
                outdated += 1;
                writeln!(
                    stdout,
                    "{}/{}: outdated (its source moved ahead since the copy)",
                    target.dir, skill.name
                )?;
            }
        }
    }
    for target in &report.targets {
        for other in &target.others {
            checked += 1;
            drifted += usize::from(other.state == OtherState::Drifted);
            writeln!(stdout, "{}", crate::sync::other_line(&target.dir, other))?;
        }
    }
    let verdict = if report.clean { "ok" } else { "drift" };
    writeln!(stdout, "{verdict}: {checked} skills checked, {drifted} drifted, {outdated} outdated")?;
    Ok(code)
}
