//! SKILL.md framing (SPEC A1, A4): the file starts with a `---` line, the frontmatter ends at the
//! first line that is exactly `---` (trailing spaces allowed), and the rest is the Markdown body.
//! A `---` inside a value (`a---b`, an indented block-scalar line) never ends it. CRLF and a
//! UTF-8 BOM are accepted and reported to the caller, which decides their severity per profile.
//!
//! [`parse`] is a pure function of the text so a fuzz target can call it directly.

use crate::finding::Finding;
use crate::yaml::{self, Key, Node};

/// The file name findings point at.
const FILE: &str = "SKILL.md";

/// A SKILL.md split into its frontmatter mapping and body.
#[derive(Debug, Clone, PartialEq)]
pub struct Frontmatter {
    /// Top-level keys in declared order (first occurrence of a duplicate kept).
    pub entries: Vec<(Key, Node)>,
    /// The Markdown after the closing `---`, line endings normalised to `\n`.
    pub body: String,
    /// 1-based file line of the body's first line.
    pub body_line: u32,
    /// The file started with a UTF-8 byte-order mark.
    pub bom: bool,
    /// The file used CRLF line endings.
    pub crlf: bool,
    /// Non-fatal problems (duplicate keys, aliases), positioned in the file.
    pub findings: Vec<Finding>,
}

impl Frontmatter {
    /// The node for a top-level key.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entries.iter().find(|(k, _)| k.name == key).map(|(_, v)| v)
    }

    /// The key record (with its position) for a top-level key.
    pub fn key(&self, key: &str) -> Option<&Key> {
        self.entries.iter().find(|(k, _)| k.name == key).map(|(k, _)| k)
    }

    /// Moves a top-level key's node out, leaving a null scalar behind, so a caller done with the
    /// tree can keep its strings without copying them.
    pub fn take(&mut self, key: &str) -> Option<Node> {
        let (_, node) = self.entries.iter_mut().find(|(k, _)| k.name == key)?;
        let null = Node { value: yaml::Value::Scalar { text: String::new(), plain: true }, ..*node };
        Some(std::mem::replace(node, null))
    }
}

/// Splits and parses a SKILL.md. `Err` holds the fatal findings (no frontmatter, unclosed,
/// invalid YAML, not a mapping); everything else comes back inside [`Frontmatter::findings`].
pub fn parse(text: &str) -> Result<Frontmatter, Vec<Finding>> {
    let (bom, text) = match text.strip_prefix('\u{feff}') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let frame = frame(text, bom)?;
    let mut findings = Vec::new();
    let yaml_text = &text[frame.yaml.clone()];
    let root = yaml::parse_document(yaml_text, FILE, 1, &mut findings).map_err(|f| vec![f])?;
    let entries = match root {
        None => Vec::new(),
        Some(node) => into_entries(node)?,
    };
    let body = &text[frame.body_start..];
    let crlf = memchr::memchr(b'\r', text.as_bytes()).is_some()
        && memchr::memmem::find(text.as_bytes(), b"\r\n").is_some();
    let body = if crlf { body.replace("\r\n", "\n") } else { body.to_string() };
    Ok(Frontmatter { entries, body, body_line: frame.body_line, bom, crlf, findings })
}

/// Byte ranges of a framed SKILL.md.
struct Frame {
    yaml: std::ops::Range<usize>,
    body_start: usize,
    body_line: u32,
}

/// Finds the opening and closing `---` lines without splitting the whole file (memchr per line).
fn frame(text: &str, bom: bool) -> Result<Frame, Vec<Finding>> {
    let line_end =
        |start: usize| memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |i| start + i + 1);
    let first_end = line_end(0);
    if !is_delimiter(&text[..first_end]) {
        return Err(vec![missing_frontmatter(bom)]);
    }
    let (mut start, mut line) = (first_end, 2);
    while start < text.len() {
        let end = line_end(start);
        if is_delimiter(&text[start..end]) {
            return Ok(Frame { yaml: first_end..start, body_start: end, body_line: line + 1 });
        }
        (start, line) = (end, line + 1);
    }
    Err(vec![Finding::error(
        "frontmatter_unclosed",
        FILE,
        "the frontmatter opened on line 1 is never closed",
    )
    .at(1, 1)
    .hint("add a line containing only `---` after the last frontmatter field")])
}

/// A line (with or without its line break) that is exactly `---`, trailing blanks allowed.
fn is_delimiter(line: &str) -> bool {
    line.starts_with("---") && line.trim_end_matches(['\n', '\r']).trim_end_matches([' ', '\t']) == "---"
}

fn missing_frontmatter(bom: bool) -> Finding {
    let hint = if bom {
        "start the file with a line containing only `---`, then `name:` and `description:`"
    } else {
        "start the file with a `---` line, the `name:` and `description:` fields, and a closing `---` line"
    };
    Finding::error("frontmatter_missing", FILE, "SKILL.md does not start with YAML frontmatter (`---`)")
        .at(1, 1)
        .hint(hint)
}

fn into_entries(node: Node) -> Result<Vec<(Key, Node)>, Vec<Finding>> {
    let (line, column, kind) = (node.line, node.column, node.describe());
    match node.value {
        yaml::Value::Map(entries) => Ok(entries),
        _ => Err(vec![Finding::error(
            "yaml_not_mapping",
            FILE,
            format!("the frontmatter must be a mapping of `key: value` lines, found {kind}"),
        )
        .at(line, column)
        .hint("write one `key: value` per line, starting with `name:` and `description:`")]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(result: Result<Frontmatter, Vec<Finding>>) -> Vec<String> {
        result.unwrap_err().into_iter().map(|f| f.code).collect()
    }

    #[test]
    fn splits_frontmatter_and_body() {
        let fm = parse("---\nname: demo\ndescription: Does things\n---\n# Demo\n\nText.\n").unwrap();
        assert_eq!(fm.get("name").unwrap().as_text(), Some("demo"));
        assert_eq!(fm.body, "# Demo\n\nText.\n");
        assert_eq!(fm.body_line, 5);
        assert!(!fm.bom && !fm.crlf);
    }

    #[test]
    fn triple_dash_inside_a_value_does_not_end_the_frontmatter() {
        let fm = parse("---\nname: demo\ndescription: a---b\n---\nbody").unwrap();
        assert_eq!(fm.get("description").unwrap().as_text(), Some("a---b"));
        assert_eq!(fm.body, "body");
    }

    #[test]
    fn indented_dashes_in_a_block_scalar_stay_in_the_value() {
        let fm = parse("---\nname: demo\ndescription: |\n  one\n  ---\n  two\n---\nbody").unwrap();
        assert_eq!(fm.get("description").unwrap().as_text(), Some("one\n---\ntwo\n"));
    }

    #[test]
    fn crlf_is_accepted_and_reported() {
        let fm = parse("---\r\nname: demo\r\ndescription: d\r\n---\r\nline one\r\nline two\r\n").unwrap();
        assert!(fm.crlf);
        assert_eq!(fm.get("description").unwrap().as_text(), Some("d"));
        assert_eq!(fm.body, "line one\nline two\n");
    }

    #[test]
    fn a_bom_is_stripped_and_reported() {
        let fm = parse("\u{feff}---\nname: demo\ndescription: d\n---\n").unwrap();
        assert!(fm.bom);
        assert_eq!(fm.get("name").unwrap().as_text(), Some("demo"));
    }

    #[test]
    fn a_file_without_frontmatter_is_refused() {
        assert_eq!(codes(parse("# No frontmatter here")), ["frontmatter_missing"]);
    }

    #[test]
    fn an_unclosed_frontmatter_is_refused() {
        assert_eq!(codes(parse("---\nname: demo\ndescription: d\n")), ["frontmatter_unclosed"]);
    }

    #[test]
    fn a_list_frontmatter_is_not_a_mapping() {
        let err = parse("---\n- just\n- a\n- list\n---\nBody\n").unwrap_err();
        assert_eq!(err[0].code, "yaml_not_mapping");
        assert_eq!(err[0].location(), "SKILL.md:2:1");
    }

    #[test]
    fn yaml_errors_point_at_the_file_line() {
        let err = parse("---\nname: [invalid\ndescription: broken\n---\nBody\n").unwrap_err();
        assert_eq!(err[0].code, "yaml_syntax");
        assert!(err[0].line.unwrap() >= 2, "{:?}", err[0]);
    }

    #[test]
    fn duplicate_keys_are_non_fatal_findings() {
        let fm = parse("---\nname: demo\ndescription: d\nname: other\n---\n").unwrap();
        assert_eq!(fm.findings[0].code, "duplicate_key");
        assert_eq!(fm.findings[0].location(), "SKILL.md:4:1");
    }
}
