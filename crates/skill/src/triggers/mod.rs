//! Trigger tests: each skill carries, in [`CASES_FILE`], the customer messages it must and must
//! not fire on; [`run_cases`] runs them through the matcher and level-2 routing the agent gets,
//! over the whole library, and reports each case, each skill's precision and recall, and the
//! messages more than one skill answers to. `docs/trigger-tests.md` has the file's rules.

mod cases;
mod run;

pub use cases::{parse_cases, render_cases, TriggerCase, CASES_FILE};
pub use run::{run_cases, CaseFailure, CaseResult, Conflict, ConflictKind, SkillTests, TriggerReport};

use std::path::Path;

use crate::finding::Finding;
use crate::package::Package;
use crate::skill_dir::{Reach, SkillDir};

/// The cases of a package, read and checked; `None` when it carries no [`CASES_FILE`].
pub fn package_cases(pkg: &Package) -> Option<(Vec<TriggerCase>, Vec<Finding>)> {
    let file = pkg.file(CASES_FILE)?;
    let Ok(text) = std::str::from_utf8(&file.bytes) else {
        return Some((Vec::new(), vec![not_utf8()]));
    };
    Some(parse_cases(text, |path| pkg.file(path).is_some()))
}

/// The cases a skill folder carries, read without following links; none when it has no
/// [`CASES_FILE`]. A file that cannot be read or has an error gives the findings instead, so a
/// caller never runs half a file. Works on any loaded skill, including one loaded for the index
/// only (whose manifest is empty), since it looks in the folder itself.
pub fn read_cases(dir: &Path, limit: u64) -> Result<Vec<TriggerCase>, Vec<Finding>> {
    let dir = SkillDir::open(dir, Reach::Named).map_err(|e| vec![e.to_finding()])?;
    if dir.kind_of(CASES_FILE).is_none() {
        return Ok(Vec::new());
    }
    let bytes = dir.read(CASES_FILE, limit).map_err(|e| vec![e.to_finding()])?;
    let text = String::from_utf8(bytes).map_err(|_| vec![not_utf8()])?;
    let (cases, findings) = parse_cases(&text, |path| dir.open_file(path, u64::MAX).is_ok());
    if findings.iter().any(Finding::is_error) {
        return Err(findings);
    }
    Ok(cases)
}

fn not_utf8() -> Finding {
    Finding::error("not_utf8", CASES_FILE, "the trigger cases are not UTF-8 text")
        .hint("save the file as UTF-8")
}
