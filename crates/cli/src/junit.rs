//! The trigger report as JUnit XML (`skillcase test --format junit`), written by the
//! `junit-report` crate: a test suite per skill, a test case per message (failures carry what
//! was expected and what happened), a `conflicts` suite whose cases fail for messages that fire
//! more than one skill, and an error case per skill folder that could not run.

use std::io::Write;

use junit_report::{Duration, OffsetDateTime, Report, TestCase, TestSuite};
use skillcase_skill::triggers::{ConflictKind, TriggerReport};

use crate::test::{describe, expected};

/// Writes `report` (and the folders that could not run) to `sink`.
pub fn write(report: &TriggerReport, broken: &[impl Broken], sink: impl Write) -> anyhow::Result<()> {
    let now = whole_seconds(OffsetDateTime::now_utc());
    let mut suites = Vec::new();
    for tests in &report.skills {
        let mut suite = suite(&tests.name, now);
        for case in &tests.cases {
            let name = case.case.query.as_str();
            let mut tc = match case.failure {
                None => TestCase::success(name, Duration::ZERO),
                Some(failure) => {
                    let code = serde_json::to_value(failure)?.as_str().unwrap_or_default().to_string();
                    let message = format!("expected {}", expected(&case.case, failure));
                    TestCase::failure(name, Duration::ZERO, &code, &message)
                }
            };
            tc.set_classname(&tests.name);
            tc.set_system_out(&describe(case));
            suite.add_testcase(tc);
        }
        suites.push(suite);
    }
    if !report.conflicts.is_empty() {
        let mut suite = suite("conflicts", now);
        for c in &report.conflicts {
            let (code, what) = match c.kind {
                ConflictKind::FiresMany => ("fires_many", format!("fires {}", c.skills.join(", "))),
                ConflictKind::Taken => {
                    ("taken", format!("should fire {} but fires {}", c.owner, c.skills.join(", ")))
                }
            };
            let mut tc = TestCase::failure(&c.query, Duration::ZERO, code, &what);
            tc.set_classname(&c.owner);
            suite.add_testcase(tc);
        }
        suites.push(suite);
    }
    for b in broken {
        let mut suite = suite(b.path(), now);
        let message = b.messages().join("; ");
        suite.add_testcase(TestCase::error("validation", Duration::ZERO, "skill_invalid", &message));
        suites.push(suite);
    }
    let mut out = Report::new();
    out.add_testsuites(suites);
    let mut sink = sink;
    out.write_xml(&mut sink)?;
    writeln!(sink)?;
    Ok(())
}

/// A skill folder that could not run, as the JUnit writer sees it.
pub trait Broken {
    fn path(&self) -> &str;
    fn messages(&self) -> Vec<String>;
}

fn suite(name: &str, at: OffsetDateTime) -> TestSuite {
    let mut suite = TestSuite::new(name);
    suite.set_timestamp(at);
    suite
}

/// The JUnit schema's timestamps carry no fraction of a second.
fn whole_seconds(at: OffsetDateTime) -> OffsetDateTime {
    at.replace_nanosecond(0).unwrap_or(at)
}
