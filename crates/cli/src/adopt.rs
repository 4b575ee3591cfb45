//! `skillcase adopt [NAME...] [--target AGENT...] (--user | --project DIR) [--data-dir D]
//! [--format text|json]`: records skill folders that are already in agents' folders — put there
//! by hand, or by another installer — in those folders' `skillcase.lock`, as they are now, so
//! verify checks them and sync keeps them from then on. Without names, every folder no lock
//! lists. Exit 0 when every one was adopted, 1 when one was refused (the others are still adopted).

use std::io::Write;
use std::process::ExitCode;

use skillcase_application::install::AdoptReport;
use skillcase_application::App;
use skillcase_library::install::SkillSource;

use crate::format::Format;
use crate::install::{refuse, Installed};

/// Arguments of `skillcase adopt`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill folders to adopt (default: every folder no lock lists).
    #[arg(value_name = "NAME")]
    names: Vec<String>,
    #[command(flatten)]
    installed: Installed,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let targets = args.installed.targets();
    let result = App::block_on(async {
        let app = crate::workspace::open(args.installed.data_dir.clone(), None).await?;
        anyhow::Ok(app.adopt_installed(targets, args.names.clone()).await)
    })?;
    let mut stdout = crate::terminal::output(args.installed.format == Format::Text);
    let report = match result {
        Ok(report) => report,
        Err(error) => return refuse(&mut stdout, args.installed.format == Format::Json, &error),
    };
    let code = if report.refused.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) };
    if args.installed.format == Format::Json {
        serde_json::to_writer_pretty(&mut stdout, &report)?;
        writeln!(stdout)?;
    } else {
        print_text(&mut stdout, &report)?;
    }
    Ok(code)
}

fn print_text(out: &mut impl Write, report: &AdoptReport) -> std::io::Result<()> {
    for adopted in &report.adopted {
        let from = match &adopted.source {
            SkillSource::Library { name, .. } => format!("the library skill {name}"),
            SkillSource::Folder { .. } | SkillSource::Git { .. } => {
                "itself (no library skill of that name)".to_string()
            }
        };
        writeln!(out, "adopted {}/{}, tracked against {from}", adopted.dir, adopted.name)?;
    }
    for refused in &report.refused {
        writeln!(
            out,
            "{}/{}: error {}: {}",
            refused.dir, refused.name, refused.error.code, refused.error.message
        )?;
    }
    writeln!(out, "adopted {}, refused {}", report.adopted.len(), report.refused.len())
}
