//! Runs trigger cases through the same matcher and level-2 routing the agent gets, over a whole
//! library at once, so a case also shows which *other* skills its message fires (the conflicts).

use std::borrow::Borrow;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::TriggerCase;
use crate::disclosure::activation_plan;
use crate::matcher::{normalize, KeywordIndex, Trigger};
use crate::model::Skill;

/// Why a case failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum CaseFailure {
    /// It should fire and did not (or fired only as a probe).
    NotFired,
    /// It should not fire and fired hard.
    FiredUnexpectedly,
    /// It should fire as a probe and fired hard, or the reverse.
    WrongKind,
    /// It fired as expected, but level 2 lists other required references.
    WrongRoute,
}

/// One case, expected against actual.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CaseResult {
    pub case: TriggerCase,
    /// How the skill fired on the message, if it did.
    pub fired: Option<Trigger>,
    /// The keyword that fired it, as the skill declares it.
    pub keyword: Option<String>,
    /// The required references level 2 lists for the message (the route it took).
    pub required: Vec<String>,
    /// The other skills the message fires hard, in name order.
    pub others: Vec<String>,
    /// None when the case passed.
    pub failure: Option<CaseFailure>,
}

/// One skill's cases and how firing measured on them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SkillTests {
    pub name: String,
    pub cases: Vec<CaseResult>,
    pub passed: u32,
    pub failed: u32,
    /// Of the messages it fired on hard, the share that should fire; None when it fired on none.
    pub precision: Option<f64>,
    /// Of the messages that should fire it hard, the share that did; None when there are none.
    pub recall: Option<f64>,
}

/// What kind of conflict a message shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ConflictKind {
    /// The message fires more than one skill hard.
    FiresMany,
    /// The message should fire `owner`, which does not fire hard, and another skill does.
    Taken,
}

/// A message of the library's cases that more than one skill answers to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Conflict {
    pub kind: ConflictKind,
    pub query: String,
    /// The skill whose case carries the message.
    pub owner: String,
    /// The skills the message fires hard, in name order.
    pub skills: Vec<String>,
}

/// Every skill's cases, run against the whole library.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TriggerReport {
    /// Skills with at least one case, in name order.
    pub skills: Vec<SkillTests>,
    pub conflicts: Vec<Conflict>,
    pub passed: u32,
    pub failed: u32,
}

impl TriggerReport {
    /// True when no case failed (conflicts alone do not fail a run).
    pub fn is_success(&self) -> bool {
        self.failed == 0
    }

    /// One skill's results, if it has cases.
    pub fn skill(&self, name: &str) -> Option<&SkillTests> {
        self.skills.iter().find(|s| s.name == name)
    }
}

/// Runs `cases` (by skill name) against `skills`, which all take part in matching. Cases of a
/// name that is not among `skills` are left out.
pub fn run_cases<S: Borrow<Skill>>(
    skills: &[S],
    cases: &BTreeMap<String, Vec<TriggerCase>>,
) -> TriggerReport {
    let index = KeywordIndex::new(skills);
    let by_name: BTreeMap<&str, &Skill> =
        skills.iter().map(Borrow::borrow).map(|s: &Skill| (s.name.as_str(), s)).collect();
    let mut report = TriggerReport { skills: Vec::new(), conflicts: Vec::new(), passed: 0, failed: 0 };
    let mut seen = BTreeSet::new();
    for (name, skill_cases) in cases {
        let Some(skill) = by_name.get(name.as_str()) else { continue };
        let results: Vec<CaseResult> = skill_cases.iter().map(|c| run_case(&index, skill, c)).collect();
        for result in &results {
            conflicts_of(name, result, &mut seen, &mut report.conflicts);
        }
        let tests = tally(name, results);
        report.passed += tests.passed;
        report.failed += tests.failed;
        report.skills.push(tests);
    }
    report
}

fn run_case(index: &KeywordIndex, skill: &Skill, case: &TriggerCase) -> CaseResult {
    let matches = index.match_message(&case.query);
    let own = matches.iter().find(|m| m.name == skill.name);
    let fired = own.map(|m| m.trigger);
    let others = matches
        .iter()
        .filter(|m| m.name != skill.name && m.trigger == Trigger::Hard)
        .map(|m| m.name.clone())
        .collect();
    let required = activation_plan(skill, Some(&case.query)).required;
    let failure = judge(case, fired, &required);
    CaseResult {
        case: case.clone(),
        fired,
        keyword: own.map(|m| m.keyword.clone()),
        required,
        others,
        failure,
    }
}

fn judge(case: &TriggerCase, fired: Option<Trigger>, required: &[String]) -> Option<CaseFailure> {
    if !case.should_trigger {
        return (fired == Some(Trigger::Hard)).then_some(CaseFailure::FiredUnexpectedly);
    }
    let expected = case.kind.unwrap_or(Trigger::Hard);
    match fired {
        None => return Some(CaseFailure::NotFired),
        Some(Trigger::Probe) if expected == Trigger::Hard => return Some(CaseFailure::NotFired),
        Some(actual) if actual != expected => return Some(CaseFailure::WrongKind),
        Some(_) => {}
    }
    match &case.required_refs {
        Some(refs) if refs.as_slice() != required => Some(CaseFailure::WrongRoute),
        _ => None,
    }
}

fn conflicts_of(owner: &str, result: &CaseResult, seen: &mut BTreeSet<String>, out: &mut Vec<Conflict>) {
    let own_hard = result.fired == Some(Trigger::Hard);
    let mut skills = result.others.clone();
    if own_hard {
        skills.push(owner.to_string());
        skills.sort();
    }
    let kind = match (own_hard, skills.len()) {
        (_, n) if n > 1 => ConflictKind::FiresMany,
        (false, 1) if result.case.should_trigger => ConflictKind::Taken,
        _ => return,
    };
    // A message several skills carry is one conflict, reported once.
    if kind == ConflictKind::FiresMany && !seen.insert(normalize(&result.case.query)) {
        return;
    }
    out.push(Conflict { kind, query: result.case.query.clone(), owner: owner.to_string(), skills });
}

fn tally(name: &str, cases: Vec<CaseResult>) -> SkillTests {
    let failed = cases.iter().filter(|c| c.failure.is_some()).count() as u32;
    let hard = |c: &&CaseResult| c.fired == Some(Trigger::Hard);
    let wants_hard =
        |c: &&CaseResult| c.case.should_trigger && c.case.kind.unwrap_or(Trigger::Hard) == Trigger::Hard;
    let fired = cases.iter().filter(hard).count();
    let wanted = cases.iter().filter(wants_hard).count();
    let right = cases.iter().filter(hard).filter(wants_hard).count();
    let share = |n: usize, of: usize| (of > 0).then(|| n as f64 / of as f64);
    SkillTests {
        name: name.to_string(),
        passed: cases.len() as u32 - failed,
        failed,
        precision: share(cases.iter().filter(hard).filter(|c| c.case.should_trigger).count(), fired),
        recall: share(right, wanted),
        cases,
    }
}
