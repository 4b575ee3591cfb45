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

/// Renders level 2 for `skill`. `read` gives the bytes of a file by its path relative to the
/// skill root; it is called only for route-matched documents.
pub fn activation<E: Display>(
    skill: &Skill,
    task: Option<&str>,
    read: &dyn Fn(&str) -> Result<Vec<u8>, E>,
) -> Result<String, DisclosureError> {
    let plan = activation_plan(skill, task);
    let mut parts: Vec<String> = Vec::new();
    let body = trim_body(&skill.body);
    if !body.is_empty() {
        parts.push(body.to_string());
    }
    if !plan.required.is_empty() {
        parts.push(list_block("skill_required_references", REQUIRED_MANDATE, &plan.required));
    }
    if !plan.optional.is_empty() {
        parts.push(list_block("skill_optional_references", OPTIONAL_NOTE, &plan.optional));
    }
    if !plan.route_matched.is_empty() {
        parts.push(inlined_block(&plan.route_matched, read)?);
    }
    Ok(parts.join("\n\n"))
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
