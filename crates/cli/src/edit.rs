//! `skillcase edit NAME PATH --skills-dir DIR --data-dir D` (hidden): replaces one file of a skill
//! with the text read from standard input, through the skill library of D — validated before
//! anything is written, swapped into place atomically, recorded as an `edit` version. Prints the
//! new version as JSON; exit 1 when the edit is refused (the error as JSON on stdout).

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use skillcase_application::App;

/// Arguments of `skillcase edit`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill to change.
    name: String,
    /// The file to replace: SKILL.md, skill.config.yaml or a support path.
    path: String,
    /// The skills directory.
    #[arg(long, value_name = "DIR")]
    skills_dir: PathBuf,
    /// The data directory holding the library's database and blobs.
    #[arg(long, value_name = "D")]
    data_dir: PathBuf,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text)?;
    let edited = App::block_on(async {
        let app = crate::workspace::open_scanned(Some(args.data_dir), Some(args.skills_dir)).await?;
        anyhow::Ok(app.edit_skill_file(args.name, args.path, text).await)
    })?;
    let mut stdout = std::io::stdout().lock();
    match edited {
        Ok(version) => {
            serde_json::to_writer_pretty(&mut stdout, &version)?;
            writeln!(stdout)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(err) => {
            serde_json::to_writer_pretty(&mut stdout, &err)?;
            writeln!(stdout)?;
            Ok(ExitCode::from(1))
        }
    }
}
