//! The trigger cases a skill carries in `skill.triggers.json`: the customer messages it must and
//! must not fire on. The shape is Anthropic skill-creator's trigger eval set (`query`,
//! `should_trigger`) plus two optional expectations this product can check: the `kind` of firing
//! (`hard` or `probe`) and the exact `required_refs` level 2 lists for the message.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

use crate::finding::Finding;
use crate::matcher::{normalize, Trigger};

/// The file, at the skill's root. An infrastructure file: stored, versioned and exported with the
/// skill, never offered to the agent.
pub const CASES_FILE: &str = "skill.triggers.json";

/// The keys a case may have.
const KEYS: &[&str] = &["query", "should_trigger", "kind", "required_refs"];

/// One message and what the skill should do with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TriggerCase {
    /// The customer's message.
    pub query: String,
    /// True: the skill must fire (hard, or as `kind` says); false: it must not fire hard.
    pub should_trigger: bool,
    /// How it must fire when it should: `hard` (the default) or `probe` (a near miss).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub kind: Option<Trigger>,
    /// The references level 2 must list as required for this message, exactly and in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub required_refs: Option<Vec<String>>,
}

/// Reads the cases in `text`, with every problem as a finding on [`CASES_FILE`]. `exists` says
/// whether a path names a file of the skill (for `required_refs`). Cases with an error are left
/// out of the list; a file that is not a JSON array gives no cases.
pub fn parse_cases(text: &str, exists: impl Fn(&str) -> bool) -> (Vec<TriggerCase>, Vec<Finding>) {
    let mut findings = Vec::new();
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            let f = Finding::error(
                "triggers_invalid_json",
                CASES_FILE,
                format!("the trigger cases are not valid JSON: {e}"),
            )
            .at(e.line().max(1) as u32, e.column().max(1) as u32)
            .hint("write a JSON array of objects such as {\"query\": \"...\", \"should_trigger\": true}");
            return (Vec::new(), vec![f]);
        }
    };
    let Value::Array(items) = value else {
        let f = Finding::error("triggers_not_a_list", CASES_FILE, "the trigger cases must be a JSON array")
            .at(1, 1)
            .hint("wrap the cases in [ ... ], one object per message");
        return (Vec::new(), vec![f]);
    };
    let lines = element_lines(text);
    let mut cases: Vec<TriggerCase> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = Place { number: i + 1, line: lines.get(i).copied().unwrap_or(1) };
        if let Some(case) = read_case(item, at, &exists, &mut findings) {
            if cases.iter().any(|c| normalize(&c.query) == normalize(&case.query)) {
                findings.push(
                    at.finding(
                        Finding::warning(
                            "trigger_query_duplicate",
                            CASES_FILE,
                            format!("case {} repeats an earlier message", at.number),
                        )
                        .hint("remove the repeated case; each message is tested once"),
                    ),
                );
            }
            cases.push(case);
        }
    }
    (cases, findings)
}

/// Where a case sits: its 1-based number and the line it starts on.
#[derive(Clone, Copy)]
struct Place {
    number: usize,
    line: u32,
}

impl Place {
    fn finding(self, f: Finding) -> Finding {
        f.at(self.line, 1)
    }

    fn error(self, code: &str, message: String, hint: &str) -> Finding {
        self.finding(Finding::error(code, CASES_FILE, message).hint(hint))
    }
}

fn read_case(
    item: &Value,
    at: Place,
    exists: &impl Fn(&str) -> bool,
    out: &mut Vec<Finding>,
) -> Option<TriggerCase> {
    let Value::Object(fields) = item else {
        out.push(at.error(
            "trigger_case_invalid",
            format!("case {} is not an object", at.number),
            "write each case as {\"query\": \"...\", \"should_trigger\": true}",
        ));
        return None;
    };
    for key in fields.keys().filter(|k| !KEYS.contains(&k.as_str())) {
        out.push(
            at.finding(
                Finding::warning(
                    "trigger_case_unknown_key",
                    CASES_FILE,
                    format!("case {} has an unknown key `{key}`", at.number),
                )
                .hint("a case has query, should_trigger, and optionally kind and required_refs"),
            ),
        );
    }
    let before = out.len();
    let query = query_of(fields, at, out);
    let should_trigger = expectation_of(fields, at, out);
    let kind = kind_of(fields, at, out);
    let required_refs = refs_of(fields, at, exists, out);
    if should_trigger == Some(false) && (kind.is_some() || required_refs.is_some()) {
        out.push(at.error(
            "trigger_expectation_contradicts",
            format!("case {} should not trigger, yet says how it fires", at.number),
            "kind and required_refs describe a firing: remove them, or set should_trigger to true",
        ));
    }
    if out[before..].iter().any(Finding::is_error) {
        return None;
    }
    Some(TriggerCase { query: query?, should_trigger: should_trigger?, kind, required_refs })
}

fn query_of(fields: &Map<String, Value>, at: Place, out: &mut Vec<Finding>) -> Option<String> {
    match fields.get("query") {
        Some(Value::String(q)) if !q.trim().is_empty() => Some(q.clone()),
        _ => {
            out.push(at.error(
                "trigger_query_missing",
                format!("case {} has no message in `query`", at.number),
                "set query to the customer's message, as a non-empty string",
            ));
            None
        }
    }
}

fn expectation_of(fields: &Map<String, Value>, at: Place, out: &mut Vec<Finding>) -> Option<bool> {
    match fields.get("should_trigger") {
        Some(Value::Bool(b)) => Some(*b),
        _ => {
            out.push(at.error(
                "trigger_expectation_missing",
                format!("case {} does not say whether the skill should fire", at.number),
                "set should_trigger to true or false (without quotes)",
            ));
            None
        }
    }
}

fn kind_of(fields: &Map<String, Value>, at: Place, out: &mut Vec<Finding>) -> Option<Trigger> {
    match fields.get("kind")? {
        Value::String(k) if k == "hard" => Some(Trigger::Hard),
        Value::String(k) if k == "probe" => Some(Trigger::Probe),
        other => {
            out.push(at.error(
                "trigger_kind_unknown",
                format!("case {} has kind {other}, which is neither \"hard\" nor \"probe\"", at.number),
                "use \"hard\" (an any_keywords entry fires it) or \"probe\" (only a probe keyword does)",
            ));
            None
        }
    }
}

fn refs_of(
    fields: &Map<String, Value>,
    at: Place,
    exists: &impl Fn(&str) -> bool,
    out: &mut Vec<Finding>,
) -> Option<Vec<String>> {
    let value = fields.get("required_refs")?;
    let Some(paths) = value
        .as_array()
        .and_then(|a| a.iter().map(|v| v.as_str().map(String::from)).collect::<Option<Vec<_>>>())
    else {
        out.push(at.error(
            "trigger_case_invalid",
            format!("case {}: required_refs must be a list of paths", at.number),
            "write required_refs as [\"references/a.md\", ...]",
        ));
        return None;
    };
    for path in paths.iter().filter(|p| !exists(p)) {
        out.push(at.error(
            "trigger_ref_missing",
            format!("case {} expects `{path}`, which is not a file of the skill", at.number),
            "name a file of the skill, relative to its folder (references/...)",
        ));
    }
    Some(paths)
}

/// The 1-based line each top-level array element starts on, so a finding can point at its case.
fn element_lines(text: &str) -> Vec<u32> {
    let mut lines = Vec::new();
    let (mut line, mut depth, mut in_string, mut escaped, mut expect) = (1u32, 0usize, false, false, false);
    for c in text.chars() {
        if c == '\n' {
            line += 1;
        }
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        if expect && !c.is_whitespace() && c != ']' {
            lines.push(line);
            expect = false;
        }
        match c {
            '"' => in_string = true,
            '[' | '{' => {
                depth += 1;
                expect = depth == 1 && c == '[';
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 1 => expect = true,
            _ => {}
        }
    }
    lines
}

/// The cases as the file stores them: pretty JSON, two-space indent, a final line break.
pub fn render_cases(cases: &[TriggerCase]) -> String {
    let mut text = serde_json::to_string_pretty(cases).expect("cases serialise");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Vec<TriggerCase>, Vec<Finding>) {
        parse_cases(text, |path| path == "references/a.md")
    }

    fn codes(findings: &[Finding]) -> Vec<(&str, Option<u32>)> {
        findings.iter().map(|f| (f.code.as_str(), f.line)).collect()
    }

    #[test]
    fn reads_skill_creator_cases_with_the_optional_expectations() {
        let text = r#"[
  {"query": "Quanto fica o frete?", "should_trigger": true},
  {"query": "retirar na loja", "should_trigger": true, "kind": "probe", "required_refs": ["references/a.md"]},
  {"query": "quero trocar", "should_trigger": false}
]"#;
        let (cases, findings) = parse(text);
        assert_eq!(findings, []);
        assert_eq!(cases.len(), 3);
        assert_eq!(cases[1].kind, Some(Trigger::Probe));
        assert_eq!(cases[1].required_refs.as_deref(), Some(&["references/a.md".to_string()][..]));
        assert!(!cases[2].should_trigger);
    }

    #[test]
    fn broken_json_is_one_error_at_its_line_and_column() {
        let (cases, findings) =
            parse("[\n  {\"query\": \"a\", \"should_trigger\": true},\n  {\"query\": }\n]");
        assert!(cases.is_empty());
        assert_eq!(codes(&findings), [("triggers_invalid_json", Some(3))]);
    }

    #[test]
    fn an_object_instead_of_a_list_is_refused() {
        let (_, findings) = parse(r#"{"query": "a", "should_trigger": true}"#);
        assert_eq!(codes(&findings), [("triggers_not_a_list", Some(1))]);
    }

    #[test]
    fn each_bad_case_is_reported_on_the_line_it_starts() {
        let text = "[\n  {\"query\": \"ok\", \"should_trigger\": true},\n  {\"query\": \"\", \"should_trigger\": true},\n  {\"query\": \"b\", \"should_trigger\": \"true\"},\n  {\"query\": \"c\", \"should_trigger\": true, \"kind\": \"soft\"},\n  \"just text\"\n]";
        let (cases, findings) = parse(text);
        assert_eq!(cases.len(), 1);
        assert_eq!(
            codes(&findings),
            [
                ("trigger_query_missing", Some(3)),
                ("trigger_expectation_missing", Some(4)),
                ("trigger_kind_unknown", Some(5)),
                ("trigger_case_invalid", Some(6)),
            ]
        );
    }

    #[test]
    fn a_negative_case_cannot_say_how_it_fires() {
        let (_, findings) = parse(r#"[{"query": "a", "should_trigger": false, "kind": "hard"}]"#);
        assert_eq!(codes(&findings), [("trigger_expectation_contradicts", Some(1))]);
    }

    #[test]
    fn expected_references_must_be_files_of_the_skill() {
        let (cases, findings) =
            parse(r#"[{"query": "a", "should_trigger": true, "required_refs": ["references/nope.md"]}]"#);
        assert!(cases.is_empty());
        assert_eq!(codes(&findings), [("trigger_ref_missing", Some(1))]);
        assert!(findings[0].message.contains("references/nope.md"));
    }

    #[test]
    fn unknown_keys_and_repeated_messages_are_warnings_that_keep_the_case() {
        let text = r#"[{"query": "Frete?", "should_trigger": true, "note": "x"}, {"query": "frete?", "should_trigger": true}]"#;
        let (cases, findings) = parse(text);
        assert_eq!(cases.len(), 2);
        assert_eq!(
            codes(&findings),
            [("trigger_case_unknown_key", Some(1)), ("trigger_query_duplicate", Some(1))]
        );
        assert!(findings.iter().all(|f| !f.is_error()));
    }

    #[test]
    fn rendered_cases_read_back_the_same_and_leave_out_absent_expectations() {
        let cases = vec![
            TriggerCase {
                query: "a \"quoted\" message".into(),
                should_trigger: true,
                kind: None,
                required_refs: None,
            },
            TriggerCase {
                query: "b".into(),
                should_trigger: true,
                kind: Some(Trigger::Hard),
                required_refs: Some(vec![]),
            },
        ];
        let text = render_cases(&cases);
        assert!(!text.contains("\"kind\": null"));
        assert!(text.ends_with("]\n"));
        assert_eq!(parse(&text).0, cases);
    }
}
