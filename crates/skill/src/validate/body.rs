//! Rules about the body and the references: A2's recommendations (every profile, warnings)
//! and A4's `skillcase` checks (required references exist, body links resolve, a long body).

use super::{Ctx, Profile};
use crate::config::CONFIG_FILE;
use crate::files;
use crate::finding::Finding;
use crate::model::SkillConfig;
use crate::yaml::{Node, Value};

/// A2 recommendation: a body under 500 lines.
const RECOMMENDED_LINES: usize = 500;
/// A2 recommendation: about 5,000 tokens (estimated as characters / 4).
const RECOMMENDED_TOKENS: usize = 5000;
/// A4 `skillcase`: a body over 200 lines is long.
const SKILLCASE_LINES: usize = 200;
/// A2: references over 300 lines should open with a table of contents.
const TOC_LINES: usize = 300;
/// How many line breaks of a reference the rules read: one past [`TOC_LINES`] decides "longer",
/// and the table of contents sits within the first [`TOC_HEAD_LINES`].
pub(super) const REFERENCE_LINES_READ: usize = TOC_LINES + 1;
/// How many lines from the top may hold that table of contents.
const TOC_HEAD_LINES: usize = 60;

/// Runs the body and reference rules that apply to the profile.
pub(super) fn check(ctx: &Ctx<'_>, config: &SkillConfig, out: &mut Vec<Finding>) {
    length(ctx, out);
    for file in ctx.pkg.files.iter().filter(|f| f.path.starts_with("references/")) {
        reference_shape(&file.path, &file.bytes, out);
    }
    if ctx.profile == Profile::Skillcase {
        required_references(ctx, config, out);
        links(ctx, out);
    }
}

fn length(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    let lines = line_count(&ctx.fm.body);
    let hint = "move detail into references/ and link to it from the body";
    if lines > RECOMMENDED_LINES {
        let msg = format!("the body has {lines} lines; keep it under {RECOMMENDED_LINES}");
        out.push(Finding::warning("body_too_long", ctx.file, msg).hint(hint));
    } else if lines > SKILLCASE_LINES && ctx.profile == Profile::Skillcase {
        let msg = format!("the body has {lines} lines (over {SKILLCASE_LINES})");
        out.push(Finding::warning("body_long", ctx.file, msg).hint(hint));
    }
    // Characters never outnumber bytes, so a body under that many bytes is not counted.
    let may_exceed = ctx.fm.body.len() >= (RECOMMENDED_TOKENS + 1) * 4;
    let tokens = if may_exceed { ctx.fm.body.chars().count() / 4 } else { 0 };
    if tokens > RECOMMENDED_TOKENS {
        let msg = format!("the body is about {tokens} tokens; keep it under about {RECOMMENDED_TOKENS}");
        out.push(Finding::warning("body_too_many_tokens", ctx.file, msg).hint(hint));
    }
}

fn reference_shape(path: &str, bytes: &[u8], out: &mut Vec<Finding>) {
    if path.matches('/').count() > 1 {
        out.push(
            Finding::warning(
                "reference_nested",
                path,
                format!("{path} is more than one level deep under references/"),
            )
            .hint("keep references one level deep: `references/<file>`"),
        );
    }
    if !has_more_lines_than(bytes, TOC_LINES) {
        return;
    }
    if !has_toc(&head_text(bytes)) {
        out.push(
            Finding::warning(
                "reference_without_toc",
                path,
                format!("{path} is over {TOC_LINES} lines and has no table of contents"),
            )
            .hint("add a `## Contents` list of its sections near the top so the agent can navigate it"),
        );
    }
}

/// What `text.lines().count()` returns, counted with [`newlines`] instead of one search per line.
fn line_count(text: &str) -> usize {
    let unterminated = !text.is_empty() && !text.ends_with('\n');
    newlines(text.as_bytes()) + usize::from(unterminated)
}

/// True when `bytes` holds more than `n` line breaks; counts in blocks so it stops early on long
/// files.
fn has_more_lines_than(bytes: &[u8], n: usize) -> bool {
    let mut seen = 0;
    bytes.chunks(4096).any(|block| {
        seen += newlines(block);
        seen > n
    })
}

/// The number of `\n` bytes (memchr's vectorised count).
fn newlines(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count()
}

/// The first lines of a file as text (only the head is searched for a table of contents).
fn head_text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    let head = &bytes[..memchr::memchr_iter(b'\n', bytes).nth(TOC_HEAD_LINES).unwrap_or(bytes.len())];
    // `from_utf8` checks ASCII a word at a time; the lossy walk is only for a broken head.
    std::str::from_utf8(head).map_or_else(|_| String::from_utf8_lossy(head), std::borrow::Cow::Borrowed)
}

/// Words that, opening a line near the top (after `#`, `*` or blanks, any case), name a table of
/// contents.
const TOC_WORDS: [&str; 7] =
    ["contents", "table of contents", "toc", "índice", "indice", "sumário", "sumario"];

/// A heading or line naming contents near the top, or several links to `#anchors`.
fn has_toc(text: &str) -> bool {
    let anchor = memchr::memmem::Finder::new("](#");
    let mut lowered = String::new();
    let mut anchors = 0;
    for line in lines(text).take(TOC_HEAD_LINES) {
        if names_contents(line.trim_start_matches(['#', ' ', '*']), &mut lowered) {
            return true;
        }
        anchors += usize::from(anchor.find(line.as_bytes()).is_some());
    }
    anchors >= 3
}

/// True when `line`, lowercased, starts with one of [`TOC_WORDS`]. A line whose ASCII first
/// character starts none of them is rejected before anything is lowered.
fn names_contents(line: &str, lowered: &mut String) -> bool {
    match line.chars().next() {
        None => return false,
        Some(c) if c.is_ascii() && !matches!(c.to_ascii_lowercase(), 'c' | 't' | 'i' | 's') => return false,
        Some(_) => {}
    }
    lowercase_prefix(line, lowered);
    TOC_WORDS.iter().any(|w| lowered.starts_with(w))
}

/// What `str::lines` yields, with each line end found by memchr's vectorised search.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (line, next) = match memchr::memchr(b'\n', rest.as_bytes()) {
            Some(i) => (rest[..i].strip_suffix('\r').unwrap_or(&rest[..i]), &rest[i + 1..]),
            None => (rest, ""),
        };
        rest = next;
        Some(line)
    })
}

/// The first 20 characters of `line`, lowercased, into `out` (reused across lines; ASCII is
/// lowered without the Unicode tables).
fn lowercase_prefix(line: &str, out: &mut String) {
    out.clear();
    for c in line.chars().take(20) {
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else {
            out.extend(c.to_lowercase());
        }
    }
}

fn required_references(ctx: &Ctx<'_>, config: &SkillConfig, out: &mut Vec<Finding>) {
    let declared = config.references.required.iter();
    let routed = config.references.routes.iter().flat_map(|r| r.required_refs.iter());
    for path in declared.chain(routed) {
        if ctx.pkg.file(path).is_none() {
            out.push(missing_reference(ctx, path));
        }
    }
}

fn missing_reference(ctx: &Ctx<'_>, path: &str) -> Finding {
    let (file, pos) = reference_position(ctx, path);
    let mut f =
        Finding::error("reference_missing", file, format!("the required reference `{path}` does not exist"))
            .hint("create the file, or fix the path (it is relative to the skill folder and case-sensitive)");
    if let Some((line, column)) = pos {
        f = f.at(line, column);
    }
    f
}

/// Where the path is written: in skill.config.yaml when that declares `references`, else SKILL.md.
fn reference_position(ctx: &Ctx<'_>, path: &str) -> (&'static str, Option<(u32, u32)>) {
    let in_config = ctx.config_entries.and_then(|e| e.iter().find(|(k, _)| k.name == "references"));
    if let Some((_, node)) = in_config {
        return (CONFIG_FILE, find_scalar(node, path));
    }
    (ctx.file, ctx.fm.get("references").and_then(|n| find_scalar(n, path)))
}

fn find_scalar(node: &Node, text: &str) -> Option<(u32, u32)> {
    match &node.value {
        Value::Scalar { text: t, .. } => (t == text).then_some((node.line, node.column)),
        Value::Seq(items) => items.iter().find_map(|n| find_scalar(n, text)),
        Value::Map(entries) => entries.iter().find_map(|(_, n)| find_scalar(n, text)),
    }
}

fn links(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    for (line, column, target) in body_links(&ctx.fm.body) {
        if ctx.pkg.file(&target).is_none() {
            out.push(
                Finding::warning(
                    "body_link_broken",
                    ctx.file,
                    format!("the link to `{target}` points to no file"),
                )
                .at(ctx.fm.body_line + line, column)
                .hint("fix the path (case-sensitive, relative to the skill folder) or add the file"),
            );
        }
    }
}

/// Markdown links `[text](target)` whose target is a file path inside the skill, outside
/// fenced code: (0-based body line, 1-based column of the target, normalised target).
pub(super) fn body_links(body: &str) -> Vec<(u32, u32, String)> {
    let mut found = Vec::new();
    let mut fence: Option<&str> = None;
    for (i, line) in body.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(marker) = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m)) {
            fence = match fence {
                Some(open) if open == marker => None,
                None => Some(marker),
                other => other,
            };
            continue;
        }
        if fence.is_none() && line.contains(']') {
            found.extend(line_links(line).into_iter().map(|(col, t)| (i as u32, col, t)));
        }
    }
    found
}

fn line_links(line: &str) -> Vec<(u32, String)> {
    line.match_indices("](")
        .filter_map(|(i, _)| {
            let start = i + 2;
            let rest = &line[start..];
            let raw = rest[..rest.find(')')?].split_whitespace().next()?;
            let target = local_target(raw)?;
            Some((line[..start].chars().count() as u32 + 1, target))
        })
        .collect()
}

/// A link target that names a file inside the skill: relative, no URL scheme, not a bare
/// `#anchor`, and path-like (a `/` or a file extension). Fragment and query are dropped.
fn local_target(raw: &str) -> Option<String> {
    let raw = raw.trim_matches(['<', '>']);
    let path = raw.split(['#', '?']).next()?.replace("%20", " ");
    let mut path = path.as_str();
    while let Some(rest) = path.strip_prefix("./") {
        path = rest;
    }
    let has_scheme = path.split_once(':').is_some_and(|(s, _)| !s.contains('/'));
    let path_like = path.contains('/') || !files::extension(path).is_empty();
    (!path.is_empty() && !has_scheme && !path.starts_with('/') && path_like).then(|| path.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_file_links_are_found_outside_code_fences() {
        let body = "See [table](references/tabela.md#top) and [site](https://x.y) [s](#usage) [m](=[O:2]).\n```\n[x](references/no.md)\n```\n[t](./templates/a.txt \"title\") [r](reference/x.md)";
        assert_eq!(
            body_links(body),
            [
                (0, 13, "references/tabela.md".to_string()),
                (4, 5, "templates/a.txt".to_string()),
                (4, 36, "reference/x.md".to_string())
            ]
        );
    }

    #[test]
    fn line_count_agrees_with_str_lines() {
        let texts =
            ["", "\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "\n\n\n", "ünï\ncödé\n😀", &"x\n".repeat(77)];
        for text in texts {
            assert_eq!(line_count(text), text.lines().count(), "{text:?}");
        }
    }

    #[test]
    fn lines_agree_with_str_lines() {
        let texts = ["", "\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\r", "a\r\r\n", "\n\n\n", "ünï\r\ncödé"];
        for text in texts {
            assert_eq!(lines(text).collect::<Vec<_>>(), text.lines().collect::<Vec<_>>(), "{text:?}");
        }
    }

    #[test]
    fn newlines_are_counted_across_word_boundaries() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| if i % 7 == 0 { b'\n' } else { (i % 251) as u8 }).collect();
        for len in [0, 1, 7, 8, 9, 63, 64, 65, 999, 1000] {
            let slice = &bytes[..len];
            assert_eq!(newlines(slice), slice.iter().filter(|&&b| b == b'\n').count(), "len {len}");
        }
    }

    #[test]
    fn a_contents_heading_or_anchor_list_counts_as_a_toc() {
        assert!(has_toc("# Guide\n\n## Contents\n- a\n"));
        assert!(has_toc("- [A](#a)\n- [B](#b)\n- [C](#c)\n"));
        assert!(!has_toc("# Guide\nplain text\n"));
        assert!(has_toc("**SUMÁRIO**\n") && has_toc("## Table Of Contents\n") && has_toc("Índice\n"));
        assert!(!has_toc("## Content\n") && !has_toc("The table of contents is below\n"));
    }
}
