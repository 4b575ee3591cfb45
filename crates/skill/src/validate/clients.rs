//! The per-client profiles' own rules (`claude-code`, `codex`): what each agent's skill loader
//! documents beyond the standard — the keys and values it reads, the limits past which it cuts
//! or refuses, and the extra file it reads (`agents/openai.yaml` for Codex). The standard's rules
//! run for both profiles too; these add what that client does differently.

use super::{Ctx, Profile};
use crate::finding::Finding;
use crate::yaml::{self, Key, Node, Value};

/// Claude Code's listing keeps at most this many characters of an entry's description and
/// `when_to_use` together.
pub const CLAUDE_CODE_ENTRY_CHARS: usize = 1_536;
/// The frontmatter keys Claude Code reads beyond the standard's six.
pub const CLAUDE_CODE_FIELDS: &[&str] = &[
    "when_to_use",
    "argument-hint",
    "arguments",
    "disable-model-invocation",
    "user-invocable",
    "disallowed-tools",
    "model",
    "effort",
    "context",
    "agent",
    "hooks",
    "paths",
    "shell",
];
const CLAUDE_CODE_EFFORTS: &[&str] = &["low", "medium", "high", "xhigh", "max"];

/// Codex refuses a skill whose `metadata.short-description` is longer than this.
const CODEX_MAX_SHORT_DESCRIPTION: usize = 1_024;
/// Codex's optional metadata file, read beside SKILL.md.
pub const OPENAI_YAML: &str = "agents/openai.yaml";
/// The top-level sections of `agents/openai.yaml` Codex reads.
const OPENAI_YAML_SECTIONS: &[&str] = &["interface", "dependencies", "policy"];
/// `interface` fields and the length past which Codex drops each (`None`: no length rule).
const OPENAI_INTERFACE_FIELDS: &[(&str, Option<usize>)] = &[
    ("display_name", Some(64)),
    ("short_description", Some(1_024)),
    ("icon_small", None),
    ("icon_large", None),
    ("brand_color", None),
    ("default_prompt", Some(1_024)),
];

/// The rules that read only the frontmatter (so they run on the fast index path too).
pub(super) fn check_frontmatter(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    match ctx.profile {
        Profile::ClaudeCode => claude_code(ctx, out),
        Profile::Codex => codex(ctx, out),
        _ => {}
    }
}

/// The rules that read other files of the package.
pub(super) fn check_files(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    if ctx.profile == Profile::Codex {
        openai_yaml(ctx, out);
    }
}

fn claude_code(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    let text = |key: &str| ctx.fm.get(key).and_then(Node::as_text).map(str::trim).unwrap_or("");
    let listed = text("description").chars().count() + text("when_to_use").chars().count();
    if listed > CLAUDE_CODE_ENTRY_CHARS {
        let node = ctx.fm.get("description").or_else(|| ctx.fm.get("when_to_use"));
        let cut = listed - CLAUDE_CODE_ENTRY_CHARS;
        let msg = format!(
            "Claude Code's skill listing keeps {CLAUDE_CODE_ENTRY_CHARS} characters of description and when_to_use; the last {cut} of these {listed} are never seen"
        );
        let f = Finding::warning("listing_entry_cut", ctx.file, msg)
            .hint("put what the skill does and when to use it first; move detail into the body");
        out.push(at(node, f));
    }
    for key in ["disable-model-invocation", "user-invocable"] {
        if let Some(node) = ctx.fm.get(key).filter(|n| boolean(n).is_none()) {
            let msg = format!("`{key}` must be true or false, found {}", node.describe());
            out.push(at(
                Some(node),
                client_value(ctx.file, msg, &format!("write `{key}: true` or `{key}: false`")),
            ));
        }
    }
    one_of(ctx, "context", &["fork"], out);
    one_of(ctx, "effort", CLAUDE_CODE_EFFORTS, out);
    let never_model = ctx.fm.get("disable-model-invocation").and_then(boolean) == Some(true);
    if never_model && ctx.fm.get("user-invocable").and_then(boolean) == Some(false) {
        let f = Finding::warning(
            "skill_unreachable",
            ctx.file,
            "with `disable-model-invocation: true` and `user-invocable: false` neither Claude nor a person can start this skill",
        )
        .hint("drop one of the two: keep the skill for the model, or for the / menu");
        out.push(at(ctx.fm.get("user-invocable"), f));
    }
}

/// A `key` whose value Claude Code reads from a fixed list.
fn one_of(ctx: &Ctx<'_>, key: &str, allowed: &[&str], out: &mut Vec<Finding>) {
    let Some(node) = ctx.fm.get(key) else { return };
    if node.as_text().is_some_and(|v| allowed.contains(&v.trim())) {
        return;
    }
    let found = node.as_text().map_or_else(|| node.describe().to_string(), |v| format!("`{v}`"));
    let msg = format!("Claude Code reads `{key}` as one of {}, found {found}", allowed.join(", "));
    out.push(at(Some(node), client_value(ctx.file, msg, &format!("write `{key}: {}`", allowed[0]))));
}

fn client_value(file: &str, msg: String, hint: &str) -> Finding {
    Finding::error("client_field_value", file, msg).hint(hint)
}

/// A plain `true`/`false` scalar, as YAML 1.2 reads it.
fn boolean(node: &Node) -> Option<bool> {
    match &node.value {
        Value::Scalar { text, plain: true } => match text.as_str() {
            "true" | "True" | "TRUE" => Some(true),
            "false" | "False" | "FALSE" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

fn codex(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    let short = ctx.fm.get("metadata").and_then(Node::as_map).and_then(|m| entry(m, "short-description"));
    if let Some(node) = short {
        let len = node.as_text().map_or(0, |t| t.trim().chars().count());
        if len > CODEX_MAX_SHORT_DESCRIPTION {
            let msg = format!(
                "metadata.short-description is {len} characters; Codex refuses to load a skill past {CODEX_MAX_SHORT_DESCRIPTION}"
            );
            let f = Finding::error("short_description_too_long", ctx.file, msg)
                .hint("shorten it to one line saying what the skill is for");
            out.push(at(Some(node), f));
        }
    }
}

/// `agents/openai.yaml`: Codex fails open (a broken file or field is dropped, the skill still
/// loads), so every problem here is a warning naming what Codex will not show.
fn openai_yaml(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    let Some(file) = ctx.pkg.file(OPENAI_YAML) else { return };
    let invalid = |why: String| {
        Finding::warning("openai_yaml_invalid", OPENAI_YAML, format!("Codex ignores {OPENAI_YAML}: {why}"))
            .hint("fix the YAML: a mapping with `interface:`, `dependencies:` or `policy:`")
    };
    let Ok(text) = std::str::from_utf8(&file.bytes) else {
        out.push(invalid("it is not UTF-8 text".into()));
        return;
    };
    let mut ignored = Vec::new();
    let root = match yaml::parse_full(text, OPENAI_YAML, 0, &mut ignored) {
        Ok(Some(root)) => root,
        Ok(None) => return,
        Err(syntax) => {
            out.push(invalid(syntax.message).at(syntax.line.unwrap_or(1), syntax.column.unwrap_or(1)));
            return;
        }
    };
    let Some(sections) = root.as_map() else {
        out.push(invalid(format!("it holds {}, not a mapping", root.describe())).at(root.line, root.column));
        return;
    };
    for (key, node) in sections {
        if !OPENAI_YAML_SECTIONS.contains(&key.name.as_str()) {
            let msg = format!("Codex does not read `{}` in {OPENAI_YAML}", key.name);
            let hint = format!("Codex reads: {}", OPENAI_YAML_SECTIONS.join(", "));
            out.push(
                Finding::warning("openai_yaml_unknown_key", OPENAI_YAML, msg)
                    .hint(hint)
                    .at(key.line, key.column),
            );
        } else if key.name == "interface" {
            interface(ctx, node, out);
        }
    }
}

fn interface(ctx: &Ctx<'_>, node: &Node, out: &mut Vec<Finding>) {
    let Some(fields) = node.as_map() else { return };
    for (key, value) in fields {
        let Some((_, limit)) = OPENAI_INTERFACE_FIELDS.iter().find(|(name, _)| *name == key.name) else {
            let msg = format!("Codex does not read `interface.{}`", key.name);
            let known: Vec<&str> = OPENAI_INTERFACE_FIELDS.iter().map(|(n, _)| *n).collect();
            let hint = format!("interface fields: {}", known.join(", "));
            out.push(
                Finding::warning("openai_yaml_unknown_key", OPENAI_YAML, msg)
                    .hint(hint)
                    .at(key.line, key.column),
            );
            continue;
        };
        let text = value.as_text().unwrap_or("").trim();
        if let Some(limit) = limit.filter(|l| text.chars().count() > *l) {
            let msg = format!(
                "interface.{} is {} characters; Codex drops it past {limit}",
                key.name,
                text.chars().count()
            );
            let f = Finding::warning("openai_yaml_field_too_long", OPENAI_YAML, msg).hint("shorten it");
            out.push(f.at(value.line, value.column));
        }
        match key.name.as_str() {
            "icon_small" | "icon_large" => icon(ctx, key, text, out),
            "brand_color" if !is_hex_color(text) => {
                let msg = format!("interface.brand_color `{text}` is not a #RRGGBB colour; Codex drops it");
                let f = Finding::warning("openai_yaml_brand_color", OPENAI_YAML, msg)
                    .hint("write it as `\"#1A7F37\"`");
                out.push(f.at(value.line, value.column));
            }
            _ => {}
        }
    }
}

/// An icon path must name a file of the skill (relative, inside the folder).
fn icon(ctx: &Ctx<'_>, key: &Key, path: &str, out: &mut Vec<Finding>) {
    let relative = path.trim_start_matches("./");
    if !relative.is_empty() && ctx.pkg.file(relative).is_some() {
        return;
    }
    let msg = format!("interface.{} `{path}` is not a file of this skill; Codex shows no icon", key.name);
    let f = Finding::warning("openai_yaml_icon_missing", OPENAI_YAML, msg)
        .hint("put the image in the skill folder (for example assets/icon.png) and give its relative path");
    out.push(f.at(key.line, key.column));
}

fn is_hex_color(text: &str) -> bool {
    text.len() == 7 && text.starts_with('#') && text[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

fn entry<'m>(map: &'m [(Key, Node)], name: &str) -> Option<&'m Node> {
    map.iter().find(|(k, _)| k.name == name).map(|(_, n)| n)
}

fn at(node: Option<&Node>, finding: Finding) -> Finding {
    match node {
        Some(n) => finding.at(n.line, n.column),
        None => finding,
    }
}
