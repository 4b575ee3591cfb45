//! The scan as a SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format), the format
//! code-scanning dashboards read: one run whose tool lists every scan rule, one result per
//! finding with its file, line and column (columns counted in Unicode code points, as the scan
//! counts them). A path that could not be read becomes a tool execution notification.

use serde_json::{json, Value};
use skillcase_skill::scan::{ScanFinding, ScanSeverity, RULES};

use crate::scan::Scanned;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The whole log for `scanned`.
pub(crate) fn log(scanned: &[Scanned]) -> Value {
    let results: Vec<Value> =
        scanned.iter().flat_map(|s| s.findings.iter().map(|f| result(&s.path, f))).collect();
    let notifications: Vec<Value> = scanned
        .iter()
        .flat_map(|s| s.unreadable.iter().map(move |f| (s, f)))
        .map(|(s, f)| {
            json!({
                "level": "error",
                "message": { "text": format!("{}: {}: {}", s.path, f.code, f.message) },
                "descriptor": { "id": f.code },
            })
        })
        .collect();
    let successful = notifications.is_empty();
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": driver() },
            "columnKind": "unicodeCodePoints",
            "invocations": [{ "executionSuccessful": successful, "toolExecutionNotifications": notifications }],
            "results": results,
        }],
    })
}

fn driver() -> Value {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|rule| {
            json!({
                "id": rule.code,
                "name": rule.code,
                "shortDescription": { "text": rule.summary },
                "help": { "text": rule.hint },
                "defaultConfiguration": { "level": level(rule.severity) },
                "properties": {
                    "tags": ["security", rule.category.as_str()],
                    "security-severity": security_severity(rule.severity),
                },
            })
        })
        .collect();
    json!({
        "name": "skillcase",
        "version": env!("CARGO_PKG_VERSION"),
        "informationUri": "https://agentskills.io",
        "rules": rules,
    })
}

fn result(skill: &str, f: &ScanFinding) -> Value {
    let index = RULES.iter().position(|r| r.code == f.code).unwrap_or_default();
    let mut region = serde_json::Map::new();
    if let Some(line) = f.line {
        region.insert("startLine".into(), json!(line));
    }
    if let Some(column) = f.column {
        region.insert("startColumn".into(), json!(column));
    }
    let mut physical = json!({ "artifactLocation": { "uri": uri(&format!("{skill}/{}", f.file)) } });
    if !region.is_empty() {
        physical["region"] = Value::Object(region);
    }
    json!({
        "ruleId": f.code,
        "ruleIndex": index,
        "level": level(f.severity),
        "message": { "text": format!("{} (fix: {})", f.message, f.hint) },
        "locations": [{ "physicalLocation": physical }],
        "properties": { "severity": f.severity.as_str(), "category": f.category.as_str() },
    })
}

fn level(severity: ScanSeverity) -> &'static str {
    match severity {
        ScanSeverity::Critical | ScanSeverity::Error => "error",
        ScanSeverity::Warning => "warning",
    }
}

/// GitHub's code scanning ranks security results by this number (critical ≥ 9, high ≥ 7).
fn security_severity(severity: ScanSeverity) -> &'static str {
    match severity {
        ScanSeverity::Critical => "9.5",
        ScanSeverity::Error => "7.5",
        ScanSeverity::Warning => "4.0",
    }
}

/// A path as a URI reference: `file://` for an absolute path, else a relative reference, each
/// byte outside the unreserved set (and `/`) percent-encoded.
fn uri(path: &str) -> String {
    let encoded: String = path
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect();
    if path.starts_with('/') {
        format!("file://{encoded}")
    } else {
        encoded
    }
}

#[cfg(test)]
mod tests {
    use super::uri;

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(uri("skills/a b/SKILL.md"), "skills/a%20b/SKILL.md");
        assert_eq!(uri("/tmp/x/SKILL.md"), "file:///tmp/x/SKILL.md");
    }
}
