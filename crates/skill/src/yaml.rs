//! A small positioned YAML tree for frontmatter and `skill.config.yaml`, built from the
//! `yaml-rust2` event parser. Every node keeps the file line and column it starts at, scalars
//! keep their source text (so `version: 1.0` stays `"1.0"`), and duplicate keys, aliases and
//! complex keys become findings instead of being silently merged.

use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::{Marker, ScanError, TScalarStyle};

use crate::finding::Finding;

/// Deepest nesting accepted; deeper input is refused rather than risking the stack.
const MAX_DEPTH: usize = 64;

/// What a YAML node holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A scalar with its source text and whether it was written plain (unquoted, not a block).
    Scalar { text: String, plain: bool },
    /// A sequence, in order.
    Seq(Vec<Node>),
    /// A mapping, in declared order, first occurrence of each key kept.
    Map(Vec<(Key, Node)>),
}

/// A node and the 1-based file line and column where it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub line: u32,
    pub column: u32,
}

/// A mapping key (always a scalar's text) and its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    pub name: String,
    pub line: u32,
    pub column: u32,
}

/// How a plain scalar resolves under the YAML 1.2 core schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlainKind {
    Null,
    Bool,
    Number,
    Str,
}

impl Node {
    /// True for an empty plain scalar, `~` or `null` (a key written with no value).
    pub fn is_null(&self) -> bool {
        matches!(&self.value, Value::Scalar { text, plain: true } if plain_kind(text) == PlainKind::Null)
    }

    /// The scalar's text, `None` for sequences and mappings.
    pub fn as_text(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar { text, .. } => Some(text),
            _ => None,
        }
    }

    /// The entries of a mapping node.
    pub fn as_map(&self) -> Option<&[(Key, Node)]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The items of a sequence node.
    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// `"a string"`, `"a list"`, `"a mapping"`, `"a number"`, ... for type-error messages.
    pub fn describe(&self) -> &'static str {
        match &self.value {
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
            Value::Scalar { plain: false, .. } => "a string",
            Value::Scalar { text, plain: true } => match plain_kind(text) {
                PlainKind::Null => "empty",
                PlainKind::Bool => "a boolean",
                PlainKind::Number => "a number",
                PlainKind::Str => "a string",
            },
        }
    }
}

/// Resolves a plain scalar the way YAML 1.2 core schema does (null, bool, number, string).
pub fn plain_kind(text: &str) -> PlainKind {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => PlainKind::Null,
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => PlainKind::Bool,
        ".inf" | "+.inf" | "-.inf" | ".Inf" | ".INF" | ".nan" | ".NaN" | ".NAN" => PlainKind::Number,
        _ if looks_numeric(text) => PlainKind::Number,
        _ => PlainKind::Str,
    }
}

fn looks_numeric(text: &str) -> bool {
    let t = text.strip_prefix(['+', '-']).unwrap_or(text);
    // Every number with a digit starts with a digit or `.`; this spares prose a float parse.
    if !t.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return false;
    }
    let hex_or_oct = t.strip_prefix("0x").or_else(|| t.strip_prefix("0o"));
    if let Some(digits) = hex_or_oct {
        return !digits.is_empty() && digits.chars().all(|c| c.is_ascii_hexdigit());
    }
    t.parse::<f64>().is_ok() && t.chars().any(|c| c.is_ascii_digit())
}

/// Parses one YAML document into a positioned tree. `file` names the file in findings and
/// `line_offset` is added to the parser's 1-based lines (the frontmatter starts on file line 2).
/// Fatal problems (syntax) return `Err`; non-fatal ones (duplicate keys, aliases) are pushed to
/// `findings` and parsing goes on. An empty document is `Ok(None)`.
///
/// Simple documents take [`crate::yaml_fast`] (same tree, a fraction of the cost);
/// everything else goes through the real parser, [`parse_full`].
pub fn parse_document(
    yaml: &str,
    file: &str,
    line_offset: u32,
    findings: &mut Vec<Finding>,
) -> Result<Option<Node>, Finding> {
    match crate::yaml_fast::parse_simple(yaml, line_offset) {
        Some(node) => Ok(Some(node)),
        None => parse_full(yaml, file, line_offset, findings),
    }
}

/// The real YAML parser (`yaml-rust2` events) for any document; see [`parse_document`].
pub fn parse_full(
    yaml: &str,
    file: &str,
    line_offset: u32,
    findings: &mut Vec<Finding>,
) -> Result<Option<Node>, Finding> {
    let mut builder = Builder { parser: Parser::new_from_str(yaml), file, line_offset, findings };
    builder.document().map_err(|e| syntax_finding(&e, yaml, file, line_offset))
}

struct Builder<'a, 'f> {
    parser: Parser<std::str::Chars<'a>>,
    file: &'f str,
    line_offset: u32,
    findings: &'f mut Vec<Finding>,
}

/// A syntax problem found while building (not by the scanner): message and position.
enum BuildError {
    Scan(ScanError),
    Other(String, Marker),
}

impl From<ScanError> for BuildError {
    fn from(e: ScanError) -> Self {
        BuildError::Scan(e)
    }
}

impl Builder<'_, '_> {
    fn document(&mut self) -> Result<Option<Node>, BuildError> {
        let mut root = None;
        loop {
            let (event, mark) = self.parser.next_token()?;
            match event {
                Event::StreamStart | Event::DocumentEnd | Event::Nothing => {}
                Event::StreamEnd => return Ok(root),
                Event::DocumentStart if root.is_some() => {
                    return Err(BuildError::Other("a second YAML document starts here".into(), mark));
                }
                Event::DocumentStart => root = Some(self.node(0)?),
                _ => return Err(BuildError::Other("unexpected YAML event".into(), mark)),
            }
        }
    }

    fn node(&mut self, depth: usize) -> Result<Node, BuildError> {
        let (event, mark) = self.parser.next_token()?;
        self.node_from(event, mark, depth)
    }

    fn node_from(&mut self, event: Event, mark: Marker, depth: usize) -> Result<Node, BuildError> {
        if depth > MAX_DEPTH {
            return Err(BuildError::Other(format!("nesting deeper than {MAX_DEPTH} levels"), mark));
        }
        let value = match event {
            Event::Scalar(text, style, _, _) => Value::Scalar { text, plain: style == TScalarStyle::Plain },
            Event::SequenceStart(..) => Value::Seq(self.seq_items(depth)?),
            Event::MappingStart(..) => Value::Map(self.map_entries(depth)?),
            Event::Alias(_) => {
                self.push_alias(mark);
                Value::Scalar { text: String::new(), plain: true }
            }
            _ => return Err(BuildError::Other("unexpected YAML event".into(), mark)),
        };
        let (line, column) = self.position(mark);
        Ok(Node { value, line, column })
    }

    fn seq_items(&mut self, depth: usize) -> Result<Vec<Node>, BuildError> {
        let mut items = Vec::new();
        loop {
            let (event, mark) = self.parser.next_token()?;
            if event == Event::SequenceEnd {
                return Ok(items);
            }
            items.push(self.node_from(event, mark, depth + 1)?);
        }
    }

    fn map_entries(&mut self, depth: usize) -> Result<Vec<(Key, Node)>, BuildError> {
        let mut entries: Vec<(Key, Node)> = Vec::new();
        loop {
            let (event, mark) = self.parser.next_token()?;
            if event == Event::MappingEnd {
                return Ok(entries);
            }
            let key_node = self.node_from(event, mark, depth + 1)?;
            let value = self.node(depth + 1)?;
            let Some(key) = self.key_of(&key_node) else { continue };
            if entries.iter().any(|(k, _)| k.name == key.name) {
                self.push_duplicate(&key);
            } else {
                entries.push((key, value));
            }
        }
    }

    fn key_of(&mut self, node: &Node) -> Option<Key> {
        match &node.value {
            Value::Scalar { text, .. } => {
                Some(Key { name: text.clone(), line: node.line, column: node.column })
            }
            _ => {
                self.findings.push(
                    Finding::error("yaml_complex_key", self.file, "a mapping key must be a plain word")
                        .at(node.line, node.column)
                        .hint("write keys as simple words, e.g. `name:`"),
                );
                None
            }
        }
    }

    fn push_duplicate(&mut self, key: &Key) {
        self.findings.push(
            Finding::error(
                "duplicate_key",
                self.file,
                format!("the key `{}` appears more than once", key.name),
            )
            .at(key.line, key.column)
            .hint(
                "keep one `{key}:` line and delete the other (the first one is used)"
                    .replace("{key}", &key.name),
            ),
        );
    }

    fn push_alias(&mut self, mark: Marker) {
        let (line, column) = self.position(mark);
        self.findings.push(
            Finding::error("yaml_alias", self.file, "YAML aliases (`*name`) are not supported here")
                .at(line, column)
                .hint("write the value out in full instead of referring to an anchor"),
        );
    }

    fn position(&self, mark: Marker) -> (u32, u32) {
        (mark.line() as u32 + self.line_offset, mark.col() as u32 + 1)
    }
}

fn syntax_finding(err: &BuildError, yaml: &str, file: &str, line_offset: u32) -> Finding {
    let (info, mark) = match err {
        BuildError::Scan(e) => (e.info().to_string(), *e.marker()),
        BuildError::Other(info, mark) => (info.clone(), *mark),
    };
    let line = mark.line() as u32 + line_offset;
    let finding =
        Finding::error("yaml_syntax", file, format!("invalid YAML: {info}")).at(line, mark.col() as u32 + 1);
    match colon_space_hint(yaml, mark.line()) {
        Some(hint) => finding.hint(hint),
        None => finding.hint("check the indentation and quoting on this line"),
    }
}

/// The hint for the most common author mistake: an unquoted value containing `: `.
fn colon_space_hint(yaml: &str, line: usize) -> Option<String> {
    let text = yaml.lines().nth(line.checked_sub(1)?)?;
    let (key, value) = text.trim_start().trim_start_matches("- ").split_once(": ")?;
    let value = value.trim_start();
    let quoted = value.starts_with(['"', '\'', '[', '{', '|', '>']);
    (!quoted && value.contains(": "))
        .then(|| format!("the value of `{}` contains `: ` — wrap the value in quotes", key.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(yaml: &str) -> (Result<Option<Node>, Finding>, Vec<Finding>) {
        let mut findings = Vec::new();
        let result = parse_document(yaml, "SKILL.md", 1, &mut findings);
        (result, findings)
    }

    #[test]
    fn scalars_keep_their_source_text_and_file_position() {
        let (root, _) = parse("name: demo\nversion: 1.0\n");
        let root = root.unwrap().unwrap();
        let map = root.as_map().unwrap();
        assert_eq!(map[1].0.name, "version");
        assert_eq!(map[1].1.as_text(), Some("1.0"));
        assert_eq!(map[1].1.describe(), "a number");
        assert_eq!((map[1].0.line, map[1].0.column), (3, 1));
        assert_eq!((map[1].1.line, map[1].1.column), (3, 10));
    }

    #[test]
    fn duplicate_keys_are_reported_and_the_first_is_kept() {
        let (root, findings) = parse("name: a\nname: b\n");
        let root = root.unwrap().unwrap();
        assert_eq!(root.as_map().unwrap().len(), 1);
        assert_eq!(root.as_map().unwrap()[0].1.as_text(), Some("a"));
        assert_eq!(findings[0].code, "duplicate_key");
        assert_eq!(findings[0].location(), "SKILL.md:3:1");
    }

    #[test]
    fn unquoted_colon_space_gets_the_quoting_hint() {
        let (root, _) = parse("name: demo\ndescription: Use when: the lead asks\n");
        let err = root.unwrap_err();
        assert_eq!(err.code, "yaml_syntax");
        assert_eq!(err.line, Some(3));
        assert_eq!(err.hint.unwrap(), "the value of `description` contains `: ` — wrap the value in quotes");
    }

    #[test]
    fn aliases_are_findings_not_expansions() {
        let (_, findings) = parse("a: &x hello\nb: *x\n");
        assert_eq!(findings[0].code, "yaml_alias");
    }

    #[test]
    fn very_deep_nesting_is_refused_without_overflowing() {
        let yaml = format!("a: {}{}", "[".repeat(200), "]".repeat(200));
        let (root, _) = parse(&yaml);
        assert_eq!(root.unwrap_err().code, "yaml_syntax");
    }

    #[test]
    fn an_empty_document_is_none() {
        assert_eq!(parse("").0.unwrap(), None);
        assert_eq!(parse("# only a comment\n").0.unwrap(), None);
    }

    #[test]
    fn plain_scalars_resolve_like_the_core_schema() {
        assert_eq!(plain_kind(""), PlainKind::Null);
        assert_eq!(plain_kind("false"), PlainKind::Bool);
        assert_eq!(plain_kind("1.0"), PlainKind::Number);
        assert_eq!(plain_kind("0x1F"), PlainKind::Number);
        assert_eq!(plain_kind("1.0.2"), PlainKind::Str);
        assert_eq!(plain_kind("infinity"), PlainKind::Str);
    }
}
