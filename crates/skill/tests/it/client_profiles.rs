//! The per-client profiles: what Claude Code's and Codex's loaders document beyond the standard,
//! one rule per test, the skill written out in the test.

use skillcase_skill::package::{Package, PackageFile};
use skillcase_skill::policy::Policy;
use skillcase_skill::validate::{validate_package, Profile, Validated, ALL_CODES};

fn validate(profile: Profile, files: &[(&str, &str)]) -> Validated {
    let mut files: Vec<PackageFile> =
        files.iter().map(|(p, t)| PackageFile::new(*p, t.as_bytes().to_vec(), Some(0o644))).collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let v = validate_package(
        &Package { folder_name: Some("refunds".into()), files },
        profile,
        &Policy::default(),
    );
    for f in &v.findings {
        assert!(ALL_CODES.contains(&f.code.as_str()), "undocumented code {}", f.code);
    }
    v
}

fn codes(v: &Validated) -> Vec<&str> {
    v.findings.iter().map(|f| f.code.as_str()).collect()
}

fn skill_md(frontmatter: &str) -> String {
    format!("---\nname: refunds\ndescription: Refund a duplicated charge.\n{frontmatter}---\n# Refunds\n")
}

#[test]
fn a_plain_standard_skill_is_clean_for_both_clients() {
    for profile in [Profile::ClaudeCode, Profile::Codex] {
        let v = validate(profile, &[("SKILL.md", &skill_md(""))]);
        assert!(v.findings.is_empty(), "{profile:?}: {:?}", v.findings);
    }
}

#[test]
fn the_client_profiles_are_named_as_on_the_command_line() {
    assert_eq!("claude-code".parse::<Profile>(), Ok(Profile::ClaudeCode));
    assert_eq!("codex".parse::<Profile>(), Ok(Profile::Codex));
    assert_eq!(serde_json::to_string(&Profile::ClaudeCode).unwrap(), "\"claude-code\"");
}

#[test]
fn claude_code_accepts_its_own_keys_and_warns_about_others() {
    let md = skill_md("when_to_use: When a customer was charged twice.\nmodel: haiku\ncolour: blue\n");
    let v = validate(Profile::ClaudeCode, &[("SKILL.md", &md)]);
    assert_eq!(codes(&v), ["unknown_key"]);
    assert!(v.findings[0].message.contains("colour"), "{:?}", v.findings[0]);
    assert!(v.is_valid());
}

#[test]
fn the_standard_profile_still_refuses_claude_code_keys() {
    let v = validate(Profile::Standard, &[("SKILL.md", &skill_md("when_to_use: Twice charged.\n"))]);
    assert_eq!(codes(&v), ["unknown_key"]);
    assert!(!v.is_valid());
}

#[test]
fn claude_code_warns_when_description_and_when_to_use_pass_1536_characters() {
    let md = format!(
        "---\nname: refunds\ndescription: {}\nwhen_to_use: {}\n---\n# Refunds\n",
        "d".repeat(1_000),
        "w".repeat(600)
    );
    let v = validate(Profile::ClaudeCode, &[("SKILL.md", &md)]);
    assert_eq!(codes(&v), ["listing_entry_cut"]);
    assert!(v.findings[0].message.contains("the last 64 of these 1600"), "{}", v.findings[0].message);
}

#[test]
fn claude_code_refuses_values_it_does_not_read() {
    let md = skill_md("context: isolated\neffort: extreme\nuser-invocable: sometimes\n");
    let v = validate(Profile::ClaudeCode, &[("SKILL.md", &md)]);
    assert_eq!(codes(&v), ["client_field_value", "client_field_value", "client_field_value"]);
    assert!(!v.is_valid());
}

#[test]
fn claude_code_warns_about_a_skill_nobody_can_start() {
    let md = skill_md("disable-model-invocation: true\nuser-invocable: false\n");
    let v = validate(Profile::ClaudeCode, &[("SKILL.md", &md)]);
    assert_eq!(codes(&v), ["skill_unreachable"]);
}

#[test]
fn codex_ignores_keys_beyond_the_standard_and_says_so() {
    let v = validate(Profile::Codex, &[("SKILL.md", &skill_md("when_to_use: Twice charged.\n"))]);
    assert_eq!(codes(&v), ["client_ignores_key"]);
    assert!(v.is_valid());
}

#[test]
fn codex_refuses_a_short_description_over_1024_characters() {
    let md = skill_md(&format!("metadata:\n  short-description: \"{}\"\n", "s".repeat(1_025)));
    let v = validate(Profile::Codex, &[("SKILL.md", &md)]);
    assert_eq!(codes(&v), ["short_description_too_long"]);
    assert!(!v.is_valid());
}

#[test]
fn codex_reads_a_well_formed_openai_yaml_without_findings() {
    let yaml = "interface:\n  display_name: Refunds\n  icon_small: ./assets/icon.png\n  brand_color: \"#1A7F37\"\npolicy:\n  allow_implicit_invocation: true\n";
    let files =
        [("SKILL.md", skill_md("")), ("agents/openai.yaml", yaml.into()), ("assets/icon.png", "png".into())];
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let v = validate(Profile::Codex, &files);
    assert!(v.findings.is_empty(), "{:?}", v.findings);
}

#[test]
fn codex_warns_about_each_openai_yaml_field_it_drops() {
    let yaml = format!(
        "interface:\n  display_name: {}\n  icon_large: assets/missing.png\n  brand_color: green\n  tagline: x\nextras: 1\n",
        "n".repeat(65)
    );
    let v = validate(Profile::Codex, &[("SKILL.md", &skill_md("")), ("agents/openai.yaml", &yaml)]);
    let mut found = codes(&v);
    found.sort_unstable();
    assert_eq!(
        found,
        [
            "openai_yaml_brand_color",
            "openai_yaml_field_too_long",
            "openai_yaml_icon_missing",
            "openai_yaml_unknown_key",
            "openai_yaml_unknown_key"
        ]
    );
    assert!(v.is_valid(), "Codex fails open: warnings only");
}

#[test]
fn codex_ignores_an_openai_yaml_that_does_not_parse() {
    let v = validate(
        Profile::Codex,
        &[("SKILL.md", &skill_md("")), ("agents/openai.yaml", "interface: [unclosed\n")],
    );
    assert_eq!(codes(&v), ["openai_yaml_invalid"]);
    assert_eq!(v.findings[0].file, "agents/openai.yaml");
}

#[test]
fn other_profiles_do_not_read_openai_yaml() {
    let v =
        validate(Profile::Standard, &[("SKILL.md", &skill_md("")), ("agents/openai.yaml", "extras: 1\n")]);
    assert!(v.findings.is_empty(), "{:?}", v.findings);
}
