//! A skill's frontmatter as the JSON object the Skills extension carries (`Skill.frontmatter`):
//! every field the author wrote, with YAML 1.2 core-schema scalars (`true`, `3`,
//! `1.5`, `~`) resolved to JSON values and everything quoted kept a string, so a host that
//! parses the `SKILL.md` it reads finds the same object.

use serde_json::{Map, Number, Value};
use skillcase_skill::frontmatter;
use skillcase_skill::yaml::{self, Node, PlainKind};

/// The frontmatter of the `SKILL.md` text `text` as a JSON object; `None` when it does not parse
/// (a served skill always parses: it was validated).
pub fn to_json(text: &str) -> Option<Map<String, Value>> {
    let parsed = frontmatter::parse(text).ok()?;
    Some(parsed.entries.iter().map(|(key, node)| (key.name.clone(), node_to_json(node))).collect())
}

fn node_to_json(node: &Node) -> Value {
    match &node.value {
        yaml::Value::Scalar { text, plain: false } => Value::String(text.clone()),
        yaml::Value::Scalar { text, plain: true } => plain_to_json(text),
        yaml::Value::Seq(items) => Value::Array(items.iter().map(node_to_json).collect()),
        yaml::Value::Map(entries) => {
            Value::Object(entries.iter().map(|(key, node)| (key.name.clone(), node_to_json(node))).collect())
        }
    }
}

/// A plain scalar under the core schema; a number JSON cannot hold (`.inf`, `.nan`) stays text.
fn plain_to_json(text: &str) -> Value {
    match yaml::plain_kind(text) {
        PlainKind::Null => Value::Null,
        PlainKind::Bool => Value::Bool(text.eq_ignore_ascii_case("true")),
        PlainKind::Number => number(text).map_or_else(|| Value::String(text.to_string()), Value::Number),
        PlainKind::Str => Value::String(text.to_string()),
    }
}

fn number(text: &str) -> Option<Number> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let radix =
        digits.strip_prefix("0x").map(|d| (d, 16)).or_else(|| digits.strip_prefix("0o").map(|d| (d, 8)));
    if let Some((digits, radix)) = radix {
        let value = i64::from_str_radix(digits, radix).ok()?;
        return Some(Number::from(if negative { -value } else { value }));
    }
    if let Ok(value) = text.trim_start_matches('+').parse::<i64>() {
        return Some(Number::from(value));
    }
    Number::from_f64(text.parse::<f64>().ok()?)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn frontmatter_of(yaml: &str) -> Value {
        Value::Object(to_json(&format!("---\n{yaml}---\n\nBody\n")).unwrap())
    }

    #[test]
    fn every_field_the_author_wrote_is_kept() {
        let json = frontmatter_of(
            "name: frete\ndescription: Prazos de entrega\nlicense: MIT\nmetadata:\n  owner: logística\n",
        );
        assert_eq!(
            json,
            json!({ "name": "frete", "description": "Prazos de entrega", "license": "MIT", "metadata": { "owner": "logística" } })
        );
    }

    #[test]
    fn plain_scalars_resolve_as_yaml_core_schema_and_quoted_ones_stay_strings() {
        let json = frontmatter_of(
            "name: a\ndescription: b\ndisable-model-invocation: true\nretries: 3\nratio: 1.5\nnothing: ~\nquoted: \"3\"\nhex: 0x1F\n",
        );
        assert_eq!(json["disable-model-invocation"], json!(true));
        assert_eq!(json["retries"], json!(3));
        assert_eq!(json["ratio"], json!(1.5));
        assert_eq!(json["nothing"], Value::Null);
        assert_eq!(json["quoted"], json!("3"));
        assert_eq!(json["hex"], json!(31));
    }

    #[test]
    fn lists_become_arrays() {
        let json = frontmatter_of("name: a\ndescription: b\nallowed-tools:\n  - Read\n  - Bash\n");
        assert_eq!(json["allowed-tools"], json!(["Read", "Bash"]));
    }

    #[test]
    fn a_number_json_cannot_hold_stays_text() {
        assert_eq!(frontmatter_of("name: a\ndescription: b\nlimit: .inf\n")["limit"], json!(".inf"));
    }
}
