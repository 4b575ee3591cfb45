//! Every finding code the validator and the folder loader can emit, in the order of
//! `docs/finding-codes.md` (which also lists the zip inspector's codes, `archive::codes::ALL_CODES`).
//! `tests/finding_codes.rs` keeps the table and both lists in step, and the corpus and conformance
//! tests check that nothing outside this list is ever emitted.

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
