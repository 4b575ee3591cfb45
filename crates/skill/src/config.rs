//! SPEC A3: the product extensions (`type`, `category`, `tags`, `disable-model-invocation`,
//! `matcher`, `references`, `interface`) read from `skill.config.yaml` and/or the frontmatter into
//! a typed [`SkillConfig`]. `skill.config.yaml` wins per key. Wrong types become positioned
//! findings and the field falls back to its default, so a config never panics the loader.

use indexmap::IndexMap;

use crate::finding::Finding;
use crate::model::{InputField, Interface, Matcher, References, Route, SkillConfig, SkillType};
use crate::yaml::{self, Key, Node, PlainKind, Value};

/// The config file name (an infrastructure file, SPEC A1).
pub const CONFIG_FILE: &str = "skill.config.yaml";

/// Keys of A3, accepted in `skill.config.yaml` and (in the `skillcase` profile) the frontmatter.
pub const EXTENSION_KEYS: &[&str] =
    &["type", "category", "tags", "disable-model-invocation", "matcher", "references", "interface"];

/// Claude Code's extra frontmatter keys: passed through with a warning in `skillcase`.
pub const CLAUDE_CODE_KEYS: &[&str] =
    &["user-invocable", "argument-hint", "model", "context", "agent", "hooks"];

/// Input types an `interface.input` field may declare.
const INPUT_TYPES: &[&str] = &["string", "number", "integer", "boolean", "array", "object"];

/// Where a config key was read from.
#[derive(Clone, Copy)]
pub struct Source<'a> {
    pub file: &'a str,
    pub entries: &'a [(Key, Node)],
}

/// Parses `skill.config.yaml` text into its top-level entries (an empty file has none).
pub fn parse_config_file(text: &str, findings: &mut Vec<Finding>) -> Result<Vec<(Key, Node)>, Finding> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match yaml::parse_document(text, CONFIG_FILE, 0, findings)? {
        None => Ok(Vec::new()),
        Some(Node { value: Value::Map(entries), .. }) => Ok(entries),
        Some(node) => Err(Finding::error(
            "yaml_not_mapping",
            CONFIG_FILE,
            format!("skill.config.yaml must be a mapping of `key: value` lines, found {}", node.describe()),
        )
        .at(node.line, node.column)
        .hint("write one `key: value` per line, e.g. `category: sales`")),
    }
}

/// Builds the config from the frontmatter entries and the config file entries (which win).
/// Findings cover type errors, unknown keys in the config file and keys set in both places.
pub fn extract(frontmatter: Source<'_>, config: Option<Source<'_>>) -> (SkillConfig, Vec<Finding>) {
    let mut out = Reader { findings: Vec::new() };
    let mut cfg = SkillConfig::default();
    if let Some(config) = config {
        out.unknown_config_keys(config);
    }
    for &key in EXTENSION_KEYS {
        let Some((file, k, node)) = out.pick(key, frontmatter, config) else { continue };
        out.apply(&mut cfg, file, k, node);
    }
    (cfg, out.findings)
}

struct Reader {
    findings: Vec<Finding>,
}

fn lookup<'a>(src: Source<'a>, key: &str) -> Option<(&'a Key, &'a Node)> {
    src.entries.iter().find(|(k, _)| k.name == key).map(|(k, v)| (k, v))
}

impl Reader {
    fn pick<'a>(
        &mut self,
        key: &str,
        frontmatter: Source<'a>,
        config: Option<Source<'a>>,
    ) -> Option<(&'a str, &'a Key, &'a Node)> {
        let from_config = config.and_then(|c| lookup(c, key).map(|(k, v)| (c.file, k, v)));
        let from_fm = lookup(frontmatter, key).map(|(k, v)| (frontmatter.file, k, v));
        if let (Some(_), Some((file, k, _))) = (from_config, from_fm) {
            self.findings.push(
                Finding::warning(
                    "config_overrides_frontmatter",
                    file,
                    format!("`{key}` is set in both the frontmatter and skill.config.yaml; skill.config.yaml wins"),
                )
                .at(k.line, k.column)
                .hint(format!("delete `{key}` from one of the two files")),
            );
        }
        from_config.or(from_fm)
    }

    fn unknown_config_keys(&mut self, config: Source<'_>) {
        for (k, _) in config.entries.iter().filter(|(k, _)| !EXTENSION_KEYS.contains(&k.name.as_str())) {
            self.findings.push(
                Finding::warning(
                    "unknown_key",
                    config.file,
                    format!("skill.config.yaml has an unknown key `{}`", k.name),
                )
                .at(k.line, k.column)
                .hint(format!("known keys: {}", EXTENSION_KEYS.join(", "))),
            );
        }
    }

    fn apply(&mut self, cfg: &mut SkillConfig, file: &str, key: &Key, node: &Node) {
        match key.name.as_str() {
            "type" => cfg.type_ = self.skill_type(file, node),
            "category" => cfg.category = self.string(file, "category", node),
            "tags" => cfg.tags = self.string_list(file, "tags", node),
            "disable-model-invocation" => cfg.hidden = self.boolean(file, "disable-model-invocation", node),
            "matcher" => cfg.matcher = self.matcher(file, key, node),
            "references" => cfg.references = self.references(file, node),
            "interface" => cfg.interface = self.interface(file, node),
            _ => {}
        }
    }

    fn type_error(&mut self, file: &str, field: &str, node: &Node, expected: &str, example: &str) {
        self.findings.push(
            Finding::error(
                "field_type",
                file,
                format!("`{field}` must be {expected}, found {}", node.describe()),
            )
            .at(node.line, node.column)
            .hint(format!("write it as {example}")),
        );
    }

    fn string(&mut self, file: &str, field: &str, node: &Node) -> Option<String> {
        match node.as_text() {
            Some(text) if !node.is_null() => Some(text.to_string()),
            _ => {
                self.type_error(file, field, node, "a text value", &format!("`{field}: some text`"));
                None
            }
        }
    }

    fn string_list(&mut self, file: &str, field: &str, node: &Node) -> Vec<String> {
        let example = format!("`{field}: [one, two]`");
        let Some(items) = node.as_seq() else {
            self.type_error(file, field, node, "a list of text values", &example);
            return Vec::new();
        };
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            match item.as_text() {
                Some(text) if !item.is_null() => out.push(text.to_string()),
                _ => self.type_error(file, &format!("{field}[]"), item, "a text value", &example),
            }
        }
        out
    }

    fn boolean(&mut self, file: &str, field: &str, node: &Node) -> bool {
        match &node.value {
            Value::Scalar { text, plain: true } if yaml::plain_kind(text) == PlainKind::Bool => {
                text.eq_ignore_ascii_case("true")
            }
            _ => {
                self.type_error(file, field, node, "true or false", &format!("`{field}: true`"));
                false
            }
        }
    }

    fn skill_type(&mut self, file: &str, node: &Node) -> Option<SkillType> {
        let text = self.string(file, "type", node)?;
        let parsed = [SkillType::Prompt, SkillType::ComputeEntry, SkillType::ComputeToolkit]
            .into_iter()
            .find(|t| t.as_str() == text);
        if parsed.is_none() {
            self.findings.push(
                Finding::error("type_invalid", file, format!("`type: {text}` is not a skill type"))
                    .at(node.line, node.column)
                    .hint(
                        "use `prompt`, `compute-entry` or `compute-toolkit`, or delete the line to derive it",
                    ),
            );
        }
        parsed
    }

    fn mapping<'n>(&mut self, file: &str, field: &str, node: &'n Node) -> Option<&'n [(Key, Node)]> {
        let map = node.as_map();
        if map.is_none() {
            self.type_error(file, field, node, "a mapping", &format!("`{field}:` followed by indented keys"));
        }
        map
    }

    fn matcher(&mut self, file: &str, key: &Key, node: &Node) -> Option<Matcher> {
        let map = self.mapping(file, "matcher", node)?;
        let src = Source { file, entries: map };
        let any = lookup(src, "any_keywords").map(|(_, n)| self.string_list(file, "matcher.any_keywords", n));
        let probe =
            lookup(src, "probe_keywords").map(|(_, n)| self.string_list(file, "matcher.probe_keywords", n));
        self.unknown_sub_keys(src, "matcher", &["any_keywords", "probe_keywords"]);
        let any = any.unwrap_or_default();
        if any.is_empty() {
            self.findings.push(
                Finding::error(
                    "matcher_any_keywords_missing",
                    file,
                    "`matcher` needs a non-empty `any_keywords` list",
                )
                .at(key.line, key.column)
                .hint("add `any_keywords: [word, other word]` under `matcher:`"),
            );
        }
        Some(Matcher { any_keywords: any, probe_keywords: probe.unwrap_or_default() })
    }

    fn references(&mut self, file: &str, node: &Node) -> References {
        let Some(map) = self.mapping(file, "references", node) else { return References::default() };
        let src = Source { file, entries: map };
        let required = lookup(src, "required")
            .map(|(_, n)| self.string_list(file, "references.required", n))
            .unwrap_or_default();
        let routes = lookup(src, "routes").map(|(_, n)| self.routes(file, n)).unwrap_or_default();
        self.unknown_sub_keys(src, "references", &["required", "routes"]);
        References { required, routes }
    }

    fn routes(&mut self, file: &str, node: &Node) -> Vec<Route> {
        let Some(items) = node.as_seq() else {
            self.type_error(file, "references.routes", node, "a list of routes", "`- match: [word]`");
            return Vec::new();
        };
        items.iter().filter_map(|item| self.route(file, item)).collect()
    }

    fn route(&mut self, file: &str, node: &Node) -> Option<Route> {
        let map = self.mapping(file, "references.routes[]", node)?;
        let src = Source { file, entries: map };
        let match_ =
            lookup(src, "match").map(|(_, n)| self.string_list(file, "match", n)).unwrap_or_default();
        let refs = lookup(src, "required_refs").map(|(_, n)| self.string_list(file, "required_refs", n));
        self.unknown_sub_keys(src, "references.routes[]", &["match", "required_refs"]);
        Some(Route { match_, required_refs: refs.unwrap_or_default() })
    }

    fn interface(&mut self, file: &str, node: &Node) -> Option<Interface> {
        let map = self.mapping(file, "interface", node)?;
        let src = Source { file, entries: map };
        self.unknown_sub_keys(src, "interface", &["input"]);
        let mut input = IndexMap::new();
        if let Some((_, fields)) = lookup(src, "input") {
            for (name, field) in self.mapping(file, "interface.input", fields).unwrap_or_default() {
                if let Some(f) = self.input_field(file, name, field) {
                    input.insert(name.name.clone(), f);
                }
            }
        }
        Some(Interface { input })
    }

    fn input_field(&mut self, file: &str, name: &Key, node: &Node) -> Option<InputField> {
        let field = format!("interface.input.{}", name.name);
        let map = self.mapping(file, &field, node)?;
        let src = Source { file, entries: map };
        self.unknown_sub_keys(src, &field, &["type", "required", "description"]);
        let type_ = lookup(src, "type").and_then(|(_, n)| self.input_type(file, &field, n));
        let required = lookup(src, "required").is_some_and(|(_, n)| self.boolean(file, &field, n));
        Some(InputField { type_: type_.unwrap_or_else(|| "string".to_string()), required })
    }

    fn input_type(&mut self, file: &str, field: &str, node: &Node) -> Option<String> {
        let text = self.string(file, &format!("{field}.type"), node)?;
        if INPUT_TYPES.contains(&text.as_str()) {
            return Some(text);
        }
        self.findings.push(
            Finding::error("field_type", file, format!("`{field}.type: {text}` is not an input type"))
                .at(node.line, node.column)
                .hint(format!("use one of: {}", INPUT_TYPES.join(", "))),
        );
        None
    }

    fn unknown_sub_keys(&mut self, src: Source<'_>, parent: &str, known: &[&str]) {
        for (k, _) in src.entries.iter().filter(|(k, _)| !known.contains(&k.name.as_str())) {
            self.findings.push(
                Finding::warning(
                    "unknown_key",
                    src.file,
                    format!("`{parent}` has an unknown key `{}`", k.name),
                )
                .at(k.line, k.column)
                .hint(format!("known keys under `{parent}`: {}", known.join(", "))),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extract_config(yaml_text: &str) -> (SkillConfig, Vec<Finding>) {
        let mut findings = Vec::new();
        let entries = parse_config_file(yaml_text, &mut findings).unwrap();
        let (cfg, more) = extract(
            Source { file: "SKILL.md", entries: &[] },
            Some(Source { file: CONFIG_FILE, entries: &entries }),
        );
        findings.extend(more);
        (cfg, findings)
    }

    fn codes(findings: &[Finding]) -> Vec<&str> {
        findings.iter().map(|f| f.code.as_str()).collect()
    }

    #[test]
    fn the_spec_example_reads_into_typed_fields() {
        let (cfg, findings) = extract_config(
            "type: compute-entry\ncategory: vendas\ntags: [preco, objecao]\ndisable-model-invocation: false\n\
             matcher:\n  any_keywords: [frete, entrega]\n  probe_keywords: [envio]\n\
             references:\n  required: [references/tabela.md]\n  routes:\n    - match: [devolução, troca]\n      required_refs: [references/trocas.md]\n\
             interface:\n  input:\n    cep: { type: string, required: true }\n    peso: { type: number }\n",
        );
        assert!(findings.is_empty(), "{findings:?}");
        assert_eq!(cfg.type_, Some(SkillType::ComputeEntry));
        assert_eq!(cfg.category.as_deref(), Some("vendas"));
        assert_eq!(cfg.tags, ["preco", "objecao"]);
        assert_eq!(cfg.matcher.unwrap().any_keywords, ["frete", "entrega"]);
        assert_eq!(cfg.references.routes[0].match_, ["devolução", "troca"]);
        let input: Vec<_> = cfg.interface.unwrap().input.into_iter().collect();
        assert_eq!(input[0].0, "cep");
        assert!(input[0].1.required);
        assert_eq!(
            (input[1].0.as_str(), input[1].1.type_.as_str(), input[1].1.required),
            ("peso", "number", false)
        );
    }

    #[test]
    fn matcher_without_any_keywords_is_an_error() {
        let (_, findings) = extract_config("matcher:\n  probe_keywords: [envio]\n");
        assert_eq!(codes(&findings), ["matcher_any_keywords_missing"]);
        let (_, findings) = extract_config("matcher:\n  any_keywords: []\n");
        assert_eq!(codes(&findings), ["matcher_any_keywords_missing"]);
    }

    #[test]
    fn wrong_types_are_positioned_findings() {
        let (cfg, findings) = extract_config("tags: preco\ndisable-model-invocation: yes\n");
        assert_eq!(codes(&findings), ["field_type", "field_type"]);
        assert_eq!(findings[0].location(), "skill.config.yaml:1:7");
        assert!(cfg.tags.is_empty() && !cfg.hidden);
    }

    #[test]
    fn an_unknown_type_value_is_an_error() {
        let (cfg, findings) = extract_config("type: agent\n");
        assert_eq!(codes(&findings), ["type_invalid"]);
        assert_eq!(cfg.type_, None);
    }

    #[test]
    fn unknown_keys_in_the_config_file_are_warnings() {
        let (_, findings) = extract_config("categroy: vendas\n");
        assert_eq!(codes(&findings), ["unknown_key"]);
        assert!(!findings[0].is_error());
    }

    #[test]
    fn the_config_file_wins_over_the_frontmatter_per_key() {
        let mut sink = Vec::new();
        let fm = crate::frontmatter::parse("---\nname: a\ndescription: d\ncategory: old\ntags: [x]\n---\n")
            .unwrap();
        let cfg_entries = parse_config_file("category: new\n", &mut sink).unwrap();
        let (cfg, findings) = extract(
            Source { file: "SKILL.md", entries: &fm.entries },
            Some(Source { file: CONFIG_FILE, entries: &cfg_entries }),
        );
        assert_eq!(cfg.category.as_deref(), Some("new"));
        assert_eq!(cfg.tags, ["x"]);
        assert_eq!(codes(&findings), ["config_overrides_frontmatter"]);
    }
}
