//! SPEC A2 (the standard fields) and the per-profile key rules of A4.

use std::borrow::Cow;
use std::collections::BTreeMap;

use unicode_normalization::UnicodeNormalization;

use super::clients::CLAUDE_CODE_FIELDS;
use super::{Ctx, Profile};
use crate::config::{CLAUDE_CODE_KEYS, EXTENSION_KEYS};
use crate::finding::Finding;
use crate::frontmatter::Frontmatter;
use crate::yaml::{self, Node, PlainKind, Value};

/// The six keys of the Agent Skills standard.
pub const STANDARD_KEYS: &[&str] =
    &["name", "description", "license", "compatibility", "metadata", "allowed-tools"];

const MAX_NAME: usize = 64;
const MAX_DESCRIPTION: usize = 1024;
const MAX_COMPATIBILITY: usize = 500;
const RESERVED_WORDS: &[&str] = &["anthropic", "claude"];

/// The standard fields as the skill keeps them (each `None` when absent or unusable).
pub(super) struct StandardFields {
    pub name: Option<String>,
    pub description: String,
    pub license: Option<String>,
    pub compatibility: Option<String>,
    pub metadata: BTreeMap<String, String>,
    pub allowed_tools: Option<String>,
}

/// Checks the six standard fields. The values are not copied here: [`take`] moves them out of
/// the frontmatter once every rule is done with it.
pub(super) fn check(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    let r = Rules { ctx };
    r.name(out);
    r.description(out);
    r.optional_text("license", out);
    r.compatibility(out);
    r.metadata(out);
    r.optional_text("allowed-tools", out);
}

/// The standard fields, moved out of the parsed frontmatter (which is dropped next), so the
/// skill owns the parser's strings instead of copies: a level-1 pass builds 10,000 skills, and
/// each copy was an allocation. What is kept follows [`check`]: a usable scalar's text (the name
/// trimmed and NFKC-normalised, the description trimmed), `metadata`'s scalar entries.
pub(super) fn take(fm: &mut Frontmatter) -> StandardFields {
    StandardFields {
        name: fm.take("name").and_then(text).map(trimmed).filter(|n| !n.is_empty()).map(nfkc_owned),
        description: fm.take("description").and_then(text).map(trimmed).unwrap_or_default(),
        license: fm.take("license").and_then(text),
        compatibility: fm.take("compatibility").and_then(text),
        metadata: fm.take("metadata").map_or_else(BTreeMap::new, metadata_entries),
        allowed_tools: fm.take("allowed-tools").and_then(text),
    }
}

/// A scalar's text, `None` for null (`~`, `null`, no value), a list or a mapping.
fn text(node: Node) -> Option<String> {
    if node.is_null() {
        return None;
    }
    match node.value {
        Value::Scalar { text, .. } => Some(text),
        _ => None,
    }
}

/// `metadata`'s entries with a scalar value (lists and mappings are reported by [`check`]).
fn metadata_entries(node: Node) -> BTreeMap<String, String> {
    let Value::Map(entries) = node.value else { return BTreeMap::new() };
    entries
        .into_iter()
        .filter_map(|(key, value)| match value.value {
            Value::Scalar { text, .. } => Some((key.name, text)),
            _ => None,
        })
        .collect()
}

/// `text` without surrounding whitespace, reusing its allocation when there is none.
fn trimmed(text: String) -> String {
    if text.trim().len() == text.len() {
        text
    } else {
        text.trim().to_string()
    }
}

/// Unknown keys: errors in `standard` and `claude` (only the six keys), warnings in `skillcase`
/// (which also accepts A3 keys and passes Claude Code keys through with a warning).
pub(super) fn check_keys(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    for (key, _) in &ctx.fm.entries {
        let k = key.name.as_str();
        if STANDARD_KEYS.contains(&k) {
            continue;
        }
        let finding = match ctx.profile {
            Profile::Standard | Profile::Claude => unknown_key_error(ctx.file, k, ctx.profile),
            Profile::Skillcase if EXTENSION_KEYS.contains(&k) => continue,
            Profile::Skillcase if CLAUDE_CODE_KEYS.contains(&k) => Finding::warning(
                "claude_code_key",
                ctx.file,
                format!("`{k}` is a Claude Code extension: passed through, ignored by other agents"),
            )
            .hint("keep it if the skill also runs in Claude Code; other agents ignore it"),
            Profile::Skillcase => {
                Finding::warning("unknown_key", ctx.file, format!("unknown frontmatter key `{k}`"))
                    .hint(format!("known keys: {}, {}", STANDARD_KEYS.join(", "), EXTENSION_KEYS.join(", ")))
            }
            Profile::ClaudeCode if CLAUDE_CODE_FIELDS.contains(&k) => continue,
            Profile::ClaudeCode => Finding::warning(
                "unknown_key",
                ctx.file,
                format!("Claude Code ignores the frontmatter key `{k}`"),
            )
            .hint(format!(
                "Claude Code reads: {}, {}",
                STANDARD_KEYS.join(", "),
                CLAUDE_CODE_FIELDS.join(", ")
            )),
            Profile::Codex => Finding::warning(
                "client_ignores_key",
                ctx.file,
                format!("Codex reads only name, description and metadata; `{k}` is ignored"),
            )
            .hint("keep it if another agent reads it; Codex behaves as if it were not there"),
        };
        out.push(finding.at(key.line, key.column));
    }
}

fn unknown_key_error(file: &str, key: &str, profile: Profile) -> Finding {
    let hint = if EXTENSION_KEYS.contains(&key) {
        format!("move `{key}` into skill.config.yaml to keep SKILL.md standard")
    } else {
        format!("the {} profile allows only: {}", profile.as_str(), STANDARD_KEYS.join(", "))
    };
    Finding::error("unknown_key", file, format!("`{key}` is not a standard frontmatter key")).hint(hint)
}

struct Rules<'c, 'a> {
    ctx: &'c Ctx<'a>,
}

impl Rules<'_, '_> {
    fn at(&self, node: &Node, f: Finding) -> Finding {
        f.at(node.line, node.column)
    }

    fn missing(&self, field: &str, out: &mut Vec<Finding>) {
        out.push(
            Finding::error(
                &format!("{field}_missing"),
                self.ctx.file,
                format!("the required field `{field}` is missing"),
            )
            .hint(format!("add a `{field}: ...` line to the frontmatter")),
        );
    }

    /// A scalar's text (`None` with a `field_type` error for lists and mappings).
    fn text<'n>(&self, field: &str, node: &'n Node, out: &mut Vec<Finding>) -> Option<&'n str> {
        let text = node.as_text();
        if text.is_none() {
            let msg = format!("`{field}` must be text, found {}", node.describe());
            let hint = format!("write `{field}: ...` on one line, or quote the value");
            out.push(self.at(node, Finding::error("field_type", self.ctx.file, msg).hint(hint)));
        }
        text
    }

    fn name(&self, out: &mut Vec<Finding>) {
        let Some(node) = self.ctx.fm.get("name") else {
            self.missing("name", out);
            return;
        };
        let Some(raw) = self.text("name", node, out) else { return };
        if node.is_null() || raw.trim().is_empty() {
            out.push(self.at(node, empty("name", self.ctx.file)));
            return;
        }
        for f in name_findings(&nfkc(raw.trim()), self.ctx) {
            out.push(self.at(node, f));
        }
    }

    fn description(&self, out: &mut Vec<Finding>) {
        let Some(node) = self.ctx.fm.get("description") else {
            self.missing("description", out);
            return;
        };
        let Some(text) = self.text("description", node, out) else { return };
        if node.is_null() || text.trim().is_empty() {
            out.push(self.at(node, empty("description", self.ctx.file)));
            return;
        }
        let len = text.chars().count();
        if len > MAX_DESCRIPTION {
            let msg = format!("the description is {len} characters; the limit is {MAX_DESCRIPTION}");
            let hint = "shorten it to what the skill does and when to use it; move detail into the body";
            out.push(self.at(node, Finding::error("description_too_long", self.ctx.file, msg).hint(hint)));
        }
        if self.ctx.profile == Profile::Claude && has_xml_tag(text) {
            out.push(self.at(node, xml_tag("description", self.ctx.file)));
        }
    }

    fn optional_text(&self, field: &str, out: &mut Vec<Finding>) {
        if let Some(node) = self.ctx.fm.get(field) {
            self.text(field, node, out);
        }
    }

    fn compatibility(&self, out: &mut Vec<Finding>) {
        let Some(node) = self.ctx.fm.get("compatibility") else { return };
        let Some(text) = self.text("compatibility", node, out) else { return };
        let len = text.chars().count();
        if node.is_null() || text.trim().is_empty() {
            out.push(self.at(node, empty("compatibility", self.ctx.file)));
        } else if len > MAX_COMPATIBILITY {
            let msg = format!("compatibility is {len} characters; the limit is {MAX_COMPATIBILITY}");
            let hint = "name only the environment requirements (product, system packages, network)";
            out.push(self.at(node, Finding::error("compatibility_too_long", self.ctx.file, msg).hint(hint)));
        }
    }

    fn metadata(&self, out: &mut Vec<Finding>) {
        let Some(node) = self.ctx.fm.get("metadata") else { return };
        let Some(entries) = node.as_map() else {
            let msg = format!(
                "`metadata` must be a mapping of text keys to text values, found {}",
                node.describe()
            );
            out.push(
                self.at(
                    node,
                    Finding::error("metadata_not_map", self.ctx.file, msg)
                        .hint("write `metadata:` then indented `key: value` lines"),
                ),
            );
            return;
        };
        for (key, value) in entries {
            self.metadata_value(&key.name, value, out);
        }
    }

    fn metadata_value(&self, key: &str, value: &Node, out: &mut Vec<Finding>) {
        match &value.value {
            Value::Scalar { text, plain } => {
                let unquoted = *plain && yaml::plain_kind(text) != PlainKind::Str;
                if unquoted && self.ctx.profile == Profile::Skillcase {
                    let msg = format!("metadata `{key}` is {}, read as the text `{text}`", value.describe());
                    let hint = format!("quote it to make the text explicit: `{key}: \"{text}\"`");
                    out.push(self.at(
                        value,
                        Finding::warning("metadata_value_unquoted", self.ctx.file, msg).hint(hint),
                    ));
                }
            }
            _ => {
                let msg = format!("metadata `{key}` must be text, found {}", value.describe());
                let hint = format!("write `{key}: some text` (metadata values are plain strings)");
                out.push(
                    self.at(
                        value,
                        Finding::error("metadata_value_not_string", self.ctx.file, msg).hint(hint),
                    ),
                );
            }
        }
    }
}

/// NFKC normalisation (A2); ASCII is already normal, so it skips the tables and the copy.
fn nfkc(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.nfkc().collect())
    }
}

/// [`nfkc`] of an owned string, which is kept as it is when already normal.
fn nfkc_owned(text: String) -> String {
    match nfkc(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(normal) => normal,
    }
}

fn empty(field: &str, file: &str) -> Finding {
    Finding::error(&format!("{field}_empty"), file, format!("`{field}` is empty"))
        .hint(format!("write a value after `{field}:`"))
}

fn xml_tag(field: &str, file: &str) -> Finding {
    Finding::error("xml_tag", file, format!("the {field} contains an XML tag (`<...>`)"))
        .hint("remove angle-bracket tags; the claude profile does not allow them in name or description")
}

/// Name rules of A2 (on the NFKC-normalised, trimmed name) plus the folder and profile rules.
fn name_findings(name: &str, ctx: &Ctx<'_>) -> Vec<Finding> {
    let file = ctx.file;
    let mut out = Vec::new();
    let mut err = |code: &str, msg: String, hint: &str| out.push(Finding::error(code, file, msg).hint(hint));
    let len = name.chars().count();
    if len > MAX_NAME {
        err(
            "name_too_long",
            format!("the name is {len} characters; the limit is {MAX_NAME}"),
            "shorten the name (and rename the folder to match)",
        );
    }
    if !is_lowercase(name) {
        err(
            "name_uppercase",
            format!("the name `{name}` must be lowercase"),
            "use lowercase letters, digits and hyphens",
        );
    }
    if name.starts_with('-') || name.ends_with('-') {
        err(
            "name_hyphen_edge",
            format!("the name `{name}` starts or ends with a hyphen"),
            "remove the leading or trailing hyphen",
        );
    }
    if name.contains("--") {
        err(
            "name_consecutive_hyphens",
            format!("the name `{name}` contains `--`"),
            "use single hyphens between words",
        );
    }
    if !name.chars().all(|c| c.is_alphanumeric() || c == '-') {
        err(
            "name_invalid_chars",
            format!("the name `{name}` has characters other than letters, digits and hyphens"),
            "replace spaces and underscores with hyphens",
        );
    }
    if let Some(folder) = &ctx.pkg.folder_name {
        let same = if folder.is_ascii() { folder == name } else { nfkc(folder) == name };
        if !same {
            err(
                "name_mismatch",
                format!("the name `{name}` does not match the folder name `{folder}`"),
                "rename the folder or change `name:` so they are equal",
            );
        }
    }
    out.extend(profile_name_findings(name, ctx));
    out
}

fn profile_name_findings(name: &str, ctx: &Ctx<'_>) -> Vec<Finding> {
    let file = ctx.file;
    let mut out = Vec::new();
    match ctx.profile {
        Profile::Skillcase if !name.is_ascii() && name.chars().all(|c| !c.is_uppercase()) => out.push(
            Finding::warning("name_non_ascii", file, format!("the name `{name}` has letters beyond ASCII"))
                .hint("prefer a-z, 0-9 and hyphens so the name works in every path and tool"),
        ),
        Profile::Claude => {
            if has_xml_tag(name) {
                out.push(xml_tag("name", file));
            }
            if let Some(word) = RESERVED_WORDS.iter().find(|w| name.contains(*w)) {
                out.push(
                    Finding::error(
                        "name_reserved_word",
                        file,
                        format!("the name `{name}` contains the reserved word `{word}`"),
                    )
                    .hint("choose a name without `anthropic` or `claude`"),
                );
            }
        }
        _ => {}
    }
    out
}

/// True when `name` is a skill name by the Agent Skills naming rule — 1 to 64 letters, digits and
/// single hyphens, lowercase, no hyphen at either end, already NFKC-normalised — so it can only
/// ever be one plain folder name: never a path, never `.` or `..`, never `skillcase.lock`, no
/// separator, NUL or control character. For names that come from outside a `SKILL.md` (a lock
/// file, a catalog) before they are used as a folder name.
pub fn is_skill_name(name: &str) -> bool {
    let len = name.chars().count();
    (1..=MAX_NAME).contains(&len)
        && is_lowercase(name)
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
        && name.chars().all(|c| c.is_alphanumeric() || c == '-')
        && nfkc(name) == name
}

/// True when lowercasing leaves the name unchanged (checked without allocating for ASCII).
fn is_lowercase(name: &str) -> bool {
    if name.is_ascii() {
        !name.bytes().any(|b| b.is_ascii_uppercase())
    } else {
        name == name.to_lowercase()
    }
}

/// `<tag>`, `</tag>`, `<tag attr>` or `<tag/>`: an angle bracket followed by a letter or `/`.
pub(super) fn has_xml_tag(text: &str) -> bool {
    text.match_indices('<').any(|(i, _)| {
        let rest = &text[i + 1..];
        let starts = rest.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '/');
        starts && rest.contains('>')
    })
}
