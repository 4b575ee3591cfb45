//! The skills a disclosure command serves: the valid skill folders of a skills directory, and
//! how a refusal is printed. Shared by `prompt`, `read`, `read-file` and `match`.

use crate::format::Format;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use skillcase_common::parallel;
use skillcase_common::ErrorBody;
use skillcase_skill::discover;
use skillcase_skill::load;
use skillcase_skill::model::Skill;
use skillcase_skill::policy::Policy;
use skillcase_skill::skill_dir::{Reach, SkillDir};
use skillcase_skill::validate::{Profile, Validated};

/// A skill folder a disclosure command serves, and how it was reached.
struct Folder {
    dir: PathBuf,
    /// [`Reach::Named`] for DIR itself (the person named it, so its links are followed), else
    /// [`Reach::Listed`]: a folder found in DIR is never a link, even one swapped in after it was
    /// listed, exactly as `serve`'s library reads it.
    reach: Reach,
}

/// The skill folders of `dir`: `dir` itself when it holds a SKILL.md, else its skill folders by
/// the one discovery rule set (`skillcase_skill::discover`: no symlinked folder is followed).
fn skill_dirs(dir: &Path) -> Vec<Folder> {
    if discover::has_skill_md(dir) {
        return vec![Folder { dir: dir.to_path_buf(), reach: Reach::Named }];
    }
    let listed = discover::skill_folders(dir).unwrap_or_default().into_iter();
    listed.map(|f| Folder { dir: f.dir, reach: Reach::Listed }).collect()
}

/// Reads and validates one folder under the `skillcase` profile.
fn load(folder: &Folder, policy: &Policy) -> Validated {
    match SkillDir::open(&folder.dir, folder.reach) {
        Ok(dir) => load::load_from(dir, Profile::Skillcase, policy),
        Err(e) => Validated::failed(vec![e.to_finding()]),
    }
}

/// `dir` with symlinks, `.` and `..` resolved, so `<location>` is the same absolute path
/// `skills-ref` prints (it resolves its paths too); `dir` itself when that fails.
fn canonical(dir: &Path) -> PathBuf {
    dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf())
}

/// Loads every skill folder of `dir` under the `skillcase` profile, on every core. Valid skills
/// are returned in folder order; each invalid one is named on stderr and left out, since only
/// valid skills are served.
pub fn load_valid(dir: &Path) -> anyhow::Result<Vec<Skill>> {
    if !dir.is_dir() {
        anyhow::bail!("{} is not a directory", dir.display());
    }
    let mut valid = Vec::new();
    for (folder, result) in load_all(dir) {
        match result {
            Validated { skill: Some(skill), .. } if result.is_valid() => valid.push(skill),
            invalid => {
                let errors = invalid.findings.iter().filter(|f| f.is_error()).count();
                let _ = writeln!(
                    crate::terminal::stderr(),
                    "skipped {}: {errors} validation error(s)",
                    folder.display()
                );
            }
        }
    }
    Ok(valid)
}

/// Every skill folder of `dir` (or `dir` itself when it holds a SKILL.md) with its validation
/// under the `skillcase` profile, valid or not, in folder order, loaded on every core.
pub fn load_all(dir: &Path) -> Vec<(PathBuf, Validated)> {
    let dir = &canonical(dir);
    let policy = Policy::default();
    let folders = skill_dirs(dir);
    let results = parallel::map(&folders, |f| load(f, &policy), |_| {});
    folders.into_iter().map(|f| f.dir).zip(results).collect()
}

/// The valid skill called `name` in `dir`, or the refusal: `skill_not_found` when no folder
/// has that name, `skill_invalid` (with the error findings in details) when it does not validate.
pub fn find(dir: &Path, name: &str) -> Result<Skill, ErrorBody> {
    let not_found =
        || ErrorBody::new("skill_not_found", format!("no skill named `{name}` in {}", dir.display()));
    let plain = !name.is_empty() && !name.contains(['/', '\\']) && name != "." && name != "..";
    if !plain {
        return Err(not_found());
    }
    let folder =
        skill_dirs(&canonical(dir)).into_iter().find(|f| f.dir.file_name().is_some_and(|n| n == name));
    let result = load(&folder.ok_or_else(not_found)?, &Policy::default());
    if result.is_valid() {
        return Ok(result.skill.expect("a valid result has a skill"));
    }
    let errors: Vec<_> = result.findings.into_iter().filter(|f| f.is_error()).collect();
    Err(ErrorBody::new(
        "skill_invalid",
        format!("skill `{name}` has {} validation error(s) and is not served", errors.len()),
    )
    .with_details(serde_json::json!({ "findings": errors })))
}

/// The most bytes a level-2 or level-3 read takes from one file: the default policy's per-file
/// limit, the one the skills were validated under.
pub fn max_read() -> u64 {
    Policy::default().limits.max_file_bytes
}

/// A refusal as printed in JSON, the same `{"error": {code, message, details}}` shape as the API.
#[derive(serde::Serialize)]
struct Refusal {
    error: ErrorBody,
}

/// Prints a refusal (JSON on stdout as `{"error": …}`, or `error[code]: message` on stderr) and
/// returns exit code 1.
pub fn refuse(format: Format, error: ErrorBody) -> anyhow::Result<ExitCode> {
    match format {
        Format::Json => {
            let mut stdout = std::io::stdout().lock();
            serde_json::to_writer_pretty(&mut stdout, &Refusal { error })?;
            writeln!(stdout)?;
        }
        Format::Text => writeln!(crate::terminal::stderr(), "error[{}]: {}", error.code, error.message)?,
    }
    Ok(ExitCode::from(1))
}

/// Prints `value` as pretty JSON on stdout.
pub fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut stdout, value)?;
    writeln!(stdout)?;
    Ok(())
}
