//! Level 2 — what `read_skill(name, task?)` returns (SPEC A6).
//!
//! The layout, pinned by the golden tests:
//!
//! ```text
//! <body, leading blank lines and trailing whitespace removed>
//!
//! <skill_required_references>
//! Read every document below with read_skill_file before you act.
//! - references/tabela.md
//! </skill_required_references>
//!
//! <skill_optional_references>
//! Read these with read_skill_file only when the task needs them.
//! - assets/modelo.txt
//! </skill_optional_references>
//!
//! <skill_route_matched_references>
//! --- references/trocas.md ---
//! <its text, trailing whitespace removed>
//!
//! --- references/prazos.md ---
//! <its text>
//! </skill_route_matched_references>
//! ```
//!
//! Parts are separated by one blank line; a block with nothing in it is omitted, and so is an
//! empty body. Paths are written verbatim (they are validated skill paths, not free text).
//!
//! **Required** = `references.required`, then the `required_refs` of every route whose `match`
//! occurs in `task` (the matcher's normalised, word-boundary rule), in declaration order,
//! duplicates dropped after their first appearance.
//! **Optional** = every other file the agent could open at level 3: files in a support folder
//! (`references/`, `assets/`, `templates/`, `scripts/`), minus infrastructure files and minus the
//! required ones, in path order. Files outside support folders (a root `README.md`) are not
//! offered, since level 3 would refuse them.
//! **Route matched** = the documents of the matched routes, de-duplicated, inlined so the agent
//! needs no second call. A route document that is not text is listed under its header as
//! `(not inlined: not a text file, N bytes)` rather than failing the whole read.

use std::fmt::Display;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{read_text, DisclosureError};
use crate::files::{is_infrastructure, is_support_path};
use crate::matcher::{contains_keyword, words};
use crate::model::Skill;

const REQUIRED_MANDATE: &str = "Read every document below with read_skill_file before you act.";
const OPTIONAL_NOTE: &str = "Read these with read_skill_file only when the task needs them.";

/// Which references level 2 lists, decided without reading any file. The UI highlights the
/// required/optional split with it; the API records it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ActivationPlan {
    /// Declared required references plus route matches, de-duplicated, in declaration order.
    pub required: Vec<String>,
    /// Other support files the agent may open, in path order.
    pub optional: Vec<String>,
    /// Documents of the routes `task` matched, inlined in the text.
    pub route_matched: Vec<String>,
}

/// Decides the three reference lists for `skill` and an optional `task`.
pub fn activation_plan(skill: &Skill, task: Option<&str>) -> ActivationPlan {
    let task_words = task.map(words).unwrap_or_default();
    let mut route_matched = Vec::new();
    for route in &skill.config.references.routes {
        if route.match_.iter().any(|keyword| contains_keyword(&task_words, keyword)) {
            push_unique(&mut route_matched, &route.required_refs);
        }
    }
    let mut required = Vec::new();
    push_unique(&mut required, &skill.config.references.required);
    push_unique(&mut required, &route_matched);
    let optional = skill
        .files
        .iter()
        .map(|f| &f.path)
        .filter(|p| is_support_path(p) && !is_infrastructure(p) && !required.contains(p))
        .cloned()
        .collect();
    ActivationPlan { required, optional, route_matched }
}

fn push_unique(into: &mut Vec<String>, paths: &[String]) {
    for path in paths {
        if !into.contains(path) {
            into.push(path.clone());
        }
    }
}

/// Level 2 with its structure: the exact text, and the same text cut into its parts, so a
/// preview can mark the blocks without parsing the text again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Activation {
    pub text: String,
    /// The parts in order; their texts joined give `text` exactly.
    pub segments: Vec<Segment>,
}

/// One part of a level-2 text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "ActivationSegment")]
pub struct Segment {
    pub kind: SegmentKind,
    /// The exact text of this part (a part followed by another ends with its line break).
    pub text: String,
    /// `required` / `optional`: the listed paths; `route_matched`: the inlined documents.
    pub paths: Vec<String>,
}

/// What a part of level 2 is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "ActivationSegmentKind")]
pub enum SegmentKind {
    /// The skill's instructions.
    Body,
    /// The blank line between two parts.
    Gap,
    Required,
    Optional,
    RouteMatched,
}

/// Renders level 2 for `skill`. `read` gives the bytes of a file by its path relative to the
/// skill root; it is called only for route-matched documents.
pub fn activation<E: Display>(
    skill: &Skill,
    task: Option<&str>,
    read: &dyn Fn(&str) -> Result<Vec<u8>, E>,
) -> Result<String, DisclosureError> {
    Ok(activation_parts(skill, task, read)?.text)
}

/// Level 2 for `skill` with its parts (see [`activation`]).
pub fn activation_parts<E: Display>(
    skill: &Skill,
    task: Option<&str>,
    read: &dyn Fn(&str) -> Result<Vec<u8>, E>,
) -> Result<Activation, DisclosureError> {
    let plan = activation_plan(skill, task);
    let mut parts: Vec<(SegmentKind, String, Vec<String>)> = Vec::new();
    let body = trim_body(&skill.body);
    if !body.is_empty() {
        parts.push((SegmentKind::Body, body.to_string(), Vec::new()));
    }
    if !plan.required.is_empty() {
        let block = list_block("skill_required_references", REQUIRED_MANDATE, &plan.required);
        parts.push((SegmentKind::Required, block, plan.required.clone()));
    }
    if !plan.optional.is_empty() {
        let block = list_block("skill_optional_references", OPTIONAL_NOTE, &plan.optional);
        parts.push((SegmentKind::Optional, block, plan.optional.clone()));
    }
    if !plan.route_matched.is_empty() {
        let block = inlined_block(&plan.route_matched, read)?;
        parts.push((SegmentKind::RouteMatched, block, plan.route_matched.clone()));
    }
    Ok(assemble(parts))
}

/// Joins the parts with one blank line, keeping each part (with its line break) and each gap as
/// a segment.
fn assemble(parts: Vec<(SegmentKind, String, Vec<String>)>) -> Activation {
    let last = parts.len().saturating_sub(1);
    let mut segments = Vec::with_capacity(parts.len() * 2);
    for (i, (kind, mut text, paths)) in parts.into_iter().enumerate() {
        if i < last {
            text.push('\n');
        }
        segments.push(Segment { kind, text, paths });
        if i < last {
            segments.push(Segment { kind: SegmentKind::Gap, text: "\n".into(), paths: Vec::new() });
        }
    }
    let text = segments.iter().map(|s| s.text.as_str()).collect();
    Activation { text, segments }
}

/// The body without leading blank lines or trailing whitespace; indentation of the first
/// non-blank line is kept (it can be meaningful Markdown).
fn trim_body(body: &str) -> &str {
    let mut start = 0;
    for line in body.split_inclusive('\n') {
        if !line.trim().is_empty() {
            break;
        }
        start += line.len();
    }
    body[start..].trim_end()
}

fn list_block(tag: &str, sentence: &str, paths: &[String]) -> String {
    let mut block = format!("<{tag}>\n{sentence}\n");
    for path in paths {
        block.push_str(&format!("- {path}\n"));
    }
    block.push_str(&format!("</{tag}>"));
    block
}

fn inlined_block<E: Display>(
    paths: &[String],
    read: &dyn Fn(&str) -> Result<Vec<u8>, E>,
) -> Result<String, DisclosureError> {
    let mut documents = Vec::with_capacity(paths.len());
    for path in paths {
        let content = match read_text(path, read) {
            Ok(text) => text.trim_end().to_string(),
            Err(DisclosureError::FileNotText { size, .. }) => {
                format!("(not inlined: not a text file, {size} bytes)")
            }
            Err(other) => return Err(other),
        };
        documents.push(format!("--- {path} ---\n{content}"));
    }
    Ok(format!(
        "<skill_route_matched_references>\n{}\n</skill_route_matched_references>",
        documents.join("\n\n")
    ))
}

#[cfg(test)]
mod parts_tests {
    use super::*;

    fn kinds(activation: &Activation) -> Vec<SegmentKind> {
        activation.segments.iter().map(|s| s.kind).collect()
    }

    #[test]
    fn the_parts_joined_are_the_text_and_carry_their_paths() {
        let parts = vec![
            (SegmentKind::Body, "# Trocas".to_string(), vec![]),
            (
                SegmentKind::Required,
                list_block("skill_required_references", REQUIRED_MANDATE, &["references/a.md".into()]),
                vec!["references/a.md".into()],
            ),
            (
                SegmentKind::Optional,
                list_block("skill_optional_references", OPTIONAL_NOTE, &["assets/b.txt".into()]),
                vec!["assets/b.txt".into()],
            ),
        ];
        let activation = assemble(parts);
        assert_eq!(
            kinds(&activation),
            [
                SegmentKind::Body,
                SegmentKind::Gap,
                SegmentKind::Required,
                SegmentKind::Gap,
                SegmentKind::Optional
            ]
        );
        assert_eq!(activation.segments.iter().map(|s| s.text.as_str()).collect::<String>(), activation.text);
        assert!(activation.text.starts_with("# Trocas\n\n<skill_required_references>\n"));
        assert_eq!(activation.segments[2].paths, ["references/a.md"]);
        assert_eq!(activation.segments[4].paths, ["assets/b.txt"]);
    }

    #[test]
    fn a_body_alone_is_one_segment_without_a_trailing_break() {
        let activation = assemble(vec![(SegmentKind::Body, "Answer politely.".to_string(), vec![])]);
        assert_eq!(activation.text, "Answer politely.");
        assert_eq!(kinds(&activation), [SegmentKind::Body]);
    }
}
