//! Trigger tests over the library (the window's *Tests* tab and conflicts view): every served
//! skill's cases run against every served skill, cases added and removed through the one edit
//! path (validated, versioned), and the cases an edit would turn from passing to failing or back,
//! worked out before the edit goes live.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::edit::{read_package, set_file};
use super::{Library, LibraryError, PROFILE};
use skillcase_skill::matcher::normalize;
use skillcase_skill::model::Skill;
use skillcase_skill::package::Package;
use skillcase_skill::triggers::{self, render_cases, CaseResult, TriggerCase, TriggerReport, CASES_FILE};
use skillcase_skill::validate::{validate_package, Validated};

/// A case whose verdict an edit changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CaseChange {
    /// The skill the case belongs to.
    pub skill: String,
    /// The case after the edit; a case the edit removes is not listed.
    pub now: CaseResult,
    /// Whether it passed before the edit (false for a case the edit adds).
    pub passed_before: bool,
}

impl Library {
    /// Runs every served skill's trigger cases against all served skills.
    pub fn trigger_tests(&self) -> TriggerReport {
        let served = self.write_state().served();
        triggers::run_cases(&served.skills, &self.served_cases(&served.skills))
    }

    /// Adds `case` to the cases of the local skill `name`, as a new version.
    pub fn add_trigger_case(&self, name: &str, case: TriggerCase) -> Result<(), LibraryError> {
        let mut cases = self.own_cases(name)?;
        if cases.iter().any(|c| normalize(&c.query) == normalize(&case.query)) {
            return Err(LibraryError::TriggerCaseExists { name: name.to_string(), query: case.query });
        }
        cases.push(case);
        self.edit(name, CASES_FILE, &render_cases(&cases)).map(|_| ())
    }

    /// Removes the case whose message is `query` from the local skill `name`, as a new version.
    pub fn remove_trigger_case(&self, name: &str, query: &str) -> Result<(), LibraryError> {
        let mut cases = self.own_cases(name)?;
        let before = cases.len();
        cases.retain(|c| c.query != query);
        if cases.len() == before {
            return Err(LibraryError::TriggerCaseNotFound {
                name: name.to_string(),
                query: query.to_string(),
            });
        }
        self.edit(name, CASES_FILE, &render_cases(&cases)).map(|_| ())
    }

    /// The cases whose verdict would change if `path` of `name` held `text`; nothing is written.
    /// An edit that leaves the skill invalid takes it out of matching, as saving it would.
    pub fn preview_trigger_changes(
        &self,
        name: &str,
        path: &str,
        text: &str,
    ) -> Result<Vec<CaseChange>, LibraryError> {
        let (entry, _) = self.live_entry(name)?;
        let mut pkg = read_package(&entry.dir)?;
        set_file(&mut pkg, path, text.as_bytes().to_vec());
        let validated = validate_package(&pkg, PROFILE, &self.policy);
        Ok(self.trigger_changes(name, &pkg, &validated))
    }

    /// The cases whose verdict would change if `name` became `pkg` (validated as `validated`):
    /// its own cases come from the package, every other skill's from the live folders. A package
    /// that does not validate takes `name` out of matching, as writing it would.
    pub(crate) fn trigger_changes(
        &self,
        name: &str,
        pkg: &Package,
        validated: &Validated,
    ) -> Vec<CaseChange> {
        let served = self.write_state().served();
        let before_cases = self.served_cases(&served.skills);
        let mut after_skills: Vec<Arc<Skill>> =
            served.skills.iter().filter(|s| s.name != name).cloned().collect();
        let mut after_cases = before_cases.clone();
        after_cases.remove(name);
        if let (true, Some(skill)) = (validated.is_valid(), &validated.skill) {
            if let Some((cases, _)) = triggers::package_cases(pkg) {
                after_cases.insert(name.to_string(), cases);
            }
            after_skills.push(Arc::new(skill.clone()));
        }
        let before = triggers::run_cases(&served.skills, &before_cases);
        let after = triggers::run_cases(&after_skills, &after_cases);
        changes(&before, &after)
    }

    /// The cases of every skill in `skills` that carries any, read from their live folders. A
    /// served skill's cases file validated when it was loaded; one that cannot be read now
    /// (changed meanwhile) is left out until the watcher reloads it.
    fn served_cases(&self, skills: &[Arc<Skill>]) -> BTreeMap<String, Vec<TriggerCase>> {
        let limit = self.policy.limits.max_file_bytes;
        skills
            .iter()
            .filter_map(|s| {
                triggers::read_cases(&s.dir, limit)
                    .ok()
                    .filter(|c| !c.is_empty())
                    .map(|c| (s.name.clone(), c))
            })
            .collect()
    }

    /// The cases of the local skill `name` as its folder holds them now.
    fn own_cases(&self, name: &str) -> Result<Vec<TriggerCase>, LibraryError> {
        let (entry, _) = self.live_entry(name)?;
        let pkg = read_package(&entry.dir)?;
        match triggers::package_cases(&pkg) {
            None => Ok(Vec::new()),
            Some((cases, findings)) if findings.iter().all(|f| !f.is_error()) => Ok(cases),
            Some((_, findings)) => Err(LibraryError::Refused { findings }),
        }
    }
}

/// The cases of `after` whose verdict differs from the same skill's case with the same message
/// in `before` (or that `before` did not have).
fn changes(before: &TriggerReport, after: &TriggerReport) -> Vec<CaseChange> {
    let passed: BTreeMap<(&str, &str), bool> = before
        .skills
        .iter()
        .flat_map(|s| {
            s.cases.iter().map(move |c| ((s.name.as_str(), c.case.query.as_str()), c.failure.is_none()))
        })
        .collect();
    let mut out = Vec::new();
    for tests in &after.skills {
        for case in &tests.cases {
            let was = passed.get(&(tests.name.as_str(), case.case.query.as_str())).copied();
            let now = case.failure.is_none();
            if was != Some(now) && !(was.is_none() && now) {
                out.push(CaseChange {
                    skill: tests.name.clone(),
                    now: case.clone(),
                    passed_before: was.unwrap_or(false),
                });
            }
        }
    }
    out
}
