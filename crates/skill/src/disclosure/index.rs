//! Level 1 — the index of available skills, always in the agent's prompt (SPEC A6).
//!
//! **Which skills.** Every skill passed in that is not hidden, sorted by name (byte order).
//! Callers pass only valid skills; this function does not validate.
//!
//! **The budget.** `budget_chars` limits the length of the whole returned `text`, counted in
//! characters (Unicode scalar values, not bytes), frame and preamble included. Skills are added
//! in name order while the text with the next one still fits; the first skill that does not fit
//! and every skill after it are left out (the list is cut, never thinned, so what the agent sees
//! is always a name-ordered prefix). A skill is never half-included. The frame (preamble and the
//! `<available_skills>` tags) is always emitted, even when it alone exceeds the budget.
//!
//! **Formats.** See [`IndexFormat`]. Neither format ends with a newline.

use std::borrow::Borrow;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::escape_into;
use crate::model::{Interface, Skill, SkillType};
use skillcase_common::parallel;

/// The default character budget of the index (SPEC A6).
pub const DEFAULT_BUDGET: usize = 8_000;

/// How level 1 is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum IndexFormat {
    /// The Agent Skills reference format, byte-identical to `skills-ref to-prompt` for the same
    /// skills in the same order: `<skill>` with `<name>`, `<description>`, `<location>`, every tag
    /// and value on its own line, name and description HTML-escaped, location verbatim.
    Agentskills,
    /// Skillcase's own format: a preamble telling the agent which tool uses which type, then one
    /// `<skill name="…" type="…" category="…" tags="a,b">description</skill>` element per skill.
    /// `category` is omitted when absent or empty, `tags` when there are none. The description's
    /// runs of whitespace (newlines included) become single spaces so each element stays on one
    /// line; a `compute-entry` skill adds a second line inside its element,
    /// `input: cep(string, required), numero(string, optional)` (`input: none` without inputs).
    #[default]
    Skillcase,
}

impl IndexFormat {
    /// The name used in query strings and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            IndexFormat::Agentskills => "agentskills",
            IndexFormat::Skillcase => "skillcase",
        }
    }
}

/// An index format name that is neither `agentskills` nor `skillcase`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown index format `{0}`; use `agentskills` or `skillcase`")]
pub struct UnknownIndexFormat(pub String);

impl skillcase_common::error::Coded for UnknownIndexFormat {
    fn code(&self) -> &'static str {
        "unknown_index_format"
    }
}

impl FromStr for IndexFormat {
    type Err = UnknownIndexFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "agentskills" => Ok(IndexFormat::Agentskills),
            "skillcase" => Ok(IndexFormat::Skillcase),
            other => Err(UnknownIndexFormat(other.to_string())),
        }
    }
}

/// Where one visible skill sits in the index and whether the budget cut it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct IndexEntryInfo {
    pub name: String,
    /// False when the budget cut this skill out.
    pub included: bool,
    /// 0-based place in the name-ordered list of visible skills.
    pub position: usize,
    /// Characters this skill adds to the text (its entry plus the newline after it), whether or
    /// not it was included.
    pub chars: usize,
}

/// The rendered index and, per visible skill, where it sits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Index {
    pub format: IndexFormat,
    /// The exact text for the agent's prompt.
    pub text: String,
    pub budget_chars: usize,
    /// Characters in `text`.
    pub used_chars: usize,
    /// Every visible skill in name order, included or cut.
    pub entries: Vec<IndexEntryInfo>,
}

const OPEN: &str = "<available_skills>\n";
const CLOSE: &str = "</available_skills>";

/// What the `skillcase` format says before the list (SPEC A6).
const SKILLCASE_PREAMBLE: &str = "\
You can use the skills listed below. Scan the list before you answer and use a skill whenever its description fits the request.
- type=\"prompt\": read it with read_skill(name), then follow it.
- type=\"compute-entry\": run it with execute_skill(name, input), passing the inputs on its `input:` line.
- type=\"compute-toolkit\": read it with read_skill(name), then run its scripts with your shell tool.
When a read returns <skill_required_references>, read every document listed there with read_skill_file before you act.

";

/// Skills rendered per unit of work: a large library's entries are rendered on every core, a
/// library of up to this many skills on the calling thread alone.
const RENDER_CHUNK: usize = 512;

/// Renders level 1 for the visible skills among `skills` (see the module documentation for the
/// budget and ordering rules). Owned or shared skills alike: the library serves shared ones.
pub fn index<S: Borrow<Skill>>(skills: &[S], format: IndexFormat, budget_chars: usize) -> Index {
    let mut visible: Vec<&Skill> = skills.iter().map(Borrow::borrow).filter(|s| !s.is_hidden()).collect();
    visible.sort_by(|a, b| a.name.cmp(&b.name));

    let mut text = String::new();
    if format == IndexFormat::Skillcase {
        text.push_str(SKILLCASE_PREAMBLE);
    }
    text.push_str(OPEN);
    let mut used = text.chars().count() + CLOSE.len();

    let chunks: Vec<&[&Skill]> = visible.chunks(RENDER_CHUNK).collect();
    let rendered = parallel::map(&chunks, |chunk| render_chunk(chunk, format), |_| {});
    let mut cut = false;
    let mut entries = Vec::with_capacity(visible.len());
    for chunk in rendered {
        let mut start = 0;
        for (end, mut info) in chunk.entries {
            cut = cut || used + info.chars > budget_chars;
            if !cut {
                text.push_str(&chunk.text[start..end]);
                used += info.chars;
            }
            info.included = !cut;
            info.position = entries.len();
            entries.push(info);
            start = end;
        }
    }
    text.push_str(CLOSE);
    Index { format, text, budget_chars, used_chars: used, entries }
}

/// Consecutive entries rendered into one buffer, each with the offset where it ends.
struct RenderedChunk {
    text: String,
    /// Per skill, in order: the end of its entry in `text`, and its info (the budget decides
    /// `included` and the place decides `position` once all chunks are back).
    entries: Vec<(usize, IndexEntryInfo)>,
}

fn render_chunk(skills: &[&Skill], format: IndexFormat) -> RenderedChunk {
    let mut text = String::with_capacity(skills.len() * 384);
    let mut entries = Vec::with_capacity(skills.len());
    for skill in skills {
        let start = text.len();
        match format {
            IndexFormat::Agentskills => agentskills_entry(&mut text, skill),
            IndexFormat::Skillcase => skillcase_entry(&mut text, skill),
        }
        text.push('\n');
        let chars = text[start..].chars().count();
        let info = IndexEntryInfo { name: skill.name.clone(), included: false, position: 0, chars };
        entries.push((text.len(), info));
    }
    RenderedChunk { text, entries }
}

fn agentskills_entry(out: &mut String, skill: &Skill) {
    out.push_str("<skill>\n<name>\n");
    escape_into(out, &skill.name);
    out.push_str("\n</name>\n<description>\n");
    escape_into(out, &skill.description);
    out.push_str("\n</description>\n<location>\n");
    push_location(out, skill);
    out.push_str("\n</location>\n</skill>");
}

/// Appends `<dir>/SKILL.md`, or `<dir>/skill.md` when only the lowercase file exists (as
/// skills-ref does), written as `Path::join` writes it but without building a path per entry.
fn push_location(out: &mut String, skill: &Skill) {
    let has = |name: &str| skill.files.iter().any(|f| f.path == name);
    let file = if !has("SKILL.md") && has("skill.md") { "skill.md" } else { "SKILL.md" };
    let dir = skill.dir.to_string_lossy();
    out.push_str(&dir);
    if dir.chars().next_back().is_some_and(|c| !std::path::is_separator(c)) {
        out.push(std::path::MAIN_SEPARATOR);
    }
    out.push_str(file);
}

fn skillcase_entry(out: &mut String, skill: &Skill) {
    out.push_str("<skill name=\"");
    escape_into(out, &skill.name);
    out.push_str("\" type=\"");
    out.push_str(skill.skill_type.as_str());
    out.push('"');
    if let Some(category) = skill.config.category.as_deref().filter(|c| !c.is_empty()) {
        out.push_str(" category=\"");
        escape_into(out, category);
        out.push('"');
    }
    if !skill.config.tags.is_empty() {
        out.push_str(" tags=\"");
        for (i, tag) in skill.config.tags.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            escape_into(out, tag);
        }
        out.push('"');
    }
    out.push('>');
    push_one_line(out, &skill.description);
    if skill.skill_type == SkillType::ComputeEntry {
        out.push('\n');
        input_summary(out, skill.config.interface.as_ref());
    }
    out.push_str("</skill>");
}

/// `input: cep(string, required), numero(string, optional)`, inputs in declared order.
fn input_summary(out: &mut String, interface: Option<&Interface>) {
    out.push_str("input: ");
    let mut any = false;
    for (name, field) in interface.into_iter().flat_map(|i| i.input.iter()) {
        if any {
            out.push_str(", ");
        }
        any = true;
        escape_into(out, name);
        out.push('(');
        escape_into(out, &field.type_);
        out.push_str(if field.required { ", required)" } else { ", optional)" });
    }
    if !any {
        out.push_str("none");
    }
}

/// Appends `text` escaped, its runs of whitespace (newlines included) written as one space.
fn push_one_line(out: &mut String, text: &str) {
    if is_one_line(text) {
        return escape_into(out, text);
    }
    for (i, word) in text.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        escape_into(out, word);
    }
}

/// True when `text` has nothing to collapse: no whitespace but single spaces between words. One
/// pass over the bytes; a character is decoded only at the lead bytes of Unicode's non-ASCII
/// whitespace (U+0085, U+00A0, U+1680 and U+2000–U+3000 start with `C2`, `E1`, `E2`, `E3`).
fn is_one_line(text: &str) -> bool {
    let mut after_space = true;
    for (i, &byte) in text.as_bytes().iter().enumerate() {
        match byte {
            b' ' if after_space => return false,
            b' ' => after_space = true,
            b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r' => return false,
            0xc2 | 0xe1 | 0xe2 | 0xe3 if text[i..].chars().next().is_some_and(char::is_whitespace) => {
                return false
            }
            _ => after_space = false,
        }
    }
    !after_space
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition: trimmed, and every space-separated word non-empty and free of whitespace.
    fn one_line_by_words(text: &str) -> bool {
        text.trim() == text && text.split(' ').all(|w| !w.is_empty() && !w.contains(char::is_whitespace))
    }

    #[test]
    fn the_byte_pass_agrees_with_the_word_definition_for_every_character() {
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            for text in [format!("a{c}b"), format!("{c} b")] {
                assert_eq!(is_one_line(&text), one_line_by_words(&text), "{text:?}");
            }
        }
    }

    #[test]
    fn spacing_that_needs_collapsing_is_seen() {
        for text in ["", " ", "a  b", " a", "a ", "a\nb", "a\tb", "a\u{a0}b", "a\u{3000}b"] {
            assert!(!is_one_line(text), "{text:?}");
        }
        for text in ["a", "a b", "ação é útil — 24 h"] {
            assert!(is_one_line(text), "{text:?}");
        }
    }
}
