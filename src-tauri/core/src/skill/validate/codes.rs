//! Every finding code the validator and the folder loader can emit, in the order of
//! `docs/validation-codes.md`. A test keeps the two in step, and the corpus and conformance tests
//! check that nothing outside this list is ever emitted.

/// All validation finding codes (stable snake_case).
pub const ALL_CODES: &[&str] = &[
    // reading the folder
    "path_not_found",
    "not_a_directory",
    "io_error",
    "symlink",
    "too_deep",
    "non_utf8_name",
    // SKILL.md framing and YAML
    "skill_md_missing",
    "skill_md_lowercase",
    "not_utf8",
    "utf8_bom",
    "crlf_line_endings",
    "frontmatter_missing",
    "frontmatter_unclosed",
    "yaml_syntax",
    "yaml_not_mapping",
    "yaml_complex_key",
    "yaml_alias",
    "duplicate_key",
    // standard fields (A2)
    "name_missing",
    "name_empty",
    "name_too_long",
    "name_uppercase",
    "name_hyphen_edge",
    "name_consecutive_hyphens",
    "name_invalid_chars",
    "name_mismatch",
    "name_non_ascii",
    "name_reserved_word",
    "xml_tag",
    "description_missing",
    "description_empty",
    "description_too_long",
    "compatibility_empty",
    "compatibility_too_long",
    "metadata_not_map",
    "metadata_value_not_string",
    "metadata_value_unquoted",
    "field_type",
    "unknown_key",
    "claude_code_key",
    // product extensions (A3) and classification (A5)
    "config_overrides_frontmatter",
    "type_invalid",
    "matcher_any_keywords_missing",
    "type_mismatch",
    "interface_missing",
    "agent_tool_required",
    // package contents (A1, A8, claude limits)
    "too_many_files",
    "package_too_large",
    "file_too_large",
    "asset_extension_not_allowed",
    "executable_content",
    "zip_root_layout",
    // body and references
    "reference_missing",
    "body_link_broken",
    "body_long",
    "body_too_long",
    "body_too_many_tokens",
    "reference_nested",
    "reference_without_toc",
];

#[cfg(test)]
mod tests {
    use super::ALL_CODES;

    const DOC: &str = include_str!("../../../../../docs/validation-codes.md");

    #[test]
    fn every_code_has_a_row_in_the_codes_table() {
        let missing: Vec<&str> =
            ALL_CODES.iter().copied().filter(|c| !DOC.contains(&format!("| `{c}` |"))).collect();
        assert!(missing.is_empty(), "codes without a row in docs/validation-codes.md: {missing:?}");
    }

    #[test]
    fn every_row_in_the_codes_table_is_a_code() {
        let rows: Vec<&str> = DOC
            .lines()
            .filter_map(|l| l.strip_prefix("| `")?.split_once("` |").map(|(c, _)| c))
            .filter(|c| !c.contains(' '))
            .collect();
        let stale: Vec<&&str> = rows.iter().filter(|c| !ALL_CODES.contains(c)).collect();
        assert!(stale.is_empty(), "rows for codes the validator never emits: {stale:?}");
    }

    #[test]
    fn codes_are_unique_snake_case() {
        let mut seen = std::collections::HashSet::new();
        for c in ALL_CODES {
            assert!(c.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_'), "{c}");
            assert!(seen.insert(c), "duplicate {c}");
        }
    }
}
