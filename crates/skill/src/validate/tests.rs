//! One behaviour per test: the input skill is written out in the test, the expected codes next to it.

use super::*;
use crate::model::SkillType;
use crate::package::PackageFile;

fn pkg(folder: Option<&str>, files: &[(&str, &str)]) -> Package {
    let mut files: Vec<PackageFile> =
        files.iter().map(|(p, t)| PackageFile::new(*p, t.as_bytes().to_vec(), Some(0o644))).collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Package { folder_name: folder.map(str::to_string), files }
}

fn run(profile: Profile, folder: &str, files: &[(&str, &str)]) -> Validated {
    let v = validate_package(&pkg(Some(folder), files), profile, &Policy::default());
    for f in &v.findings {
        assert!(ALL_CODES.contains(&f.code.as_str()), "undocumented code {}", f.code);
    }
    v
}

fn codes(v: &Validated) -> Vec<&str> {
    v.findings.iter().map(|f| f.code.as_str()).collect()
}

fn skill_md(frontmatter: &str) -> String {
    format!("---\n{frontmatter}\n---\n# Body\n")
}

const OK: &str =
    "name: demo\ndescription: Answers shipping questions. Use when the lead asks about delivery.";

#[test]
fn a_minimal_skill_is_valid_in_every_profile() {
    for profile in [Profile::Standard, Profile::Claude, Profile::Skillcase] {
        let v = run(profile, "demo", &[("SKILL.md", &skill_md(OK))]);
        assert!(v.is_valid(), "{profile:?}: {:?}", v.findings);
        assert!(v.findings.is_empty(), "{profile:?}: {:?}", v.findings);
        assert_eq!(v.skill.unwrap().name, "demo");
    }
}

#[test]
fn the_skill_keeps_the_normalised_name_the_trimmed_description_and_only_usable_values() {
    let md = skill_md(
        "name: \"  ﬁle-tool \"\ndescription: \"  Reads files.  \"\nlicense: ~\ncompatibility: \"\"\n\
         allowed-tools: [bash]\nmetadata:\n  team: support\n  people: [ana, bia]",
    );
    let skill = run(Profile::Skillcase, "file-tool", &[("SKILL.md", &md)]).skill.unwrap();
    assert_eq!(skill.name, "file-tool", "trimmed and NFKC-normalised (the ligature ﬁ becomes fi)");
    assert_eq!(skill.description, "Reads files.");
    assert_eq!(skill.license, None, "`~` is null");
    assert_eq!(skill.compatibility.as_deref(), Some(""), "an empty quoted value is kept (and reported)");
    assert_eq!(skill.allowed_tools, None, "a list is not text");
    assert_eq!(skill.metadata.into_iter().collect::<Vec<_>>(), [("team".to_string(), "support".to_string())]);
}

#[test]
fn the_skill_carries_fields_body_and_manifest() {
    let v = run(
        Profile::Skillcase,
        "demo",
        &[
            (
                "SKILL.md",
                &skill_md(&format!("{OK}\nlicense: MIT\nmetadata:\n  author: Ana\n  version: \"1.0\"")),
            ),
            ("references/a.md", "# A"),
        ],
    );
    let skill = v.skill.unwrap();
    assert_eq!(skill.license.as_deref(), Some("MIT"));
    assert_eq!(skill.metadata.get("version").map(String::as_str), Some("1.0"));
    assert_eq!(skill.body, "# Body\n");
    assert_eq!(skill.files.len(), 2);
    assert_eq!(skill.skill_type, SkillType::Prompt);
}

#[test]
fn missing_skill_md_is_an_error_without_a_skill() {
    let v = run(Profile::Skillcase, "demo", &[("references/a.md", "x")]);
    assert_eq!(codes(&v), ["skill_md_missing"]);
    assert!(v.skill.is_none());
}

#[test]
fn lowercase_skill_md_is_accepted_with_a_warning() {
    let v = run(Profile::Skillcase, "demo", &[("skill.md", &skill_md(OK))]);
    assert!(v.is_valid());
    assert_eq!(codes(&v), ["skill_md_lowercase"]);
}

#[test]
fn a_bom_is_an_error_in_standard_and_a_warning_in_skillcase() {
    let text = format!("\u{feff}{}", skill_md(OK));
    let standard = run(Profile::Standard, "demo", &[("SKILL.md", &text)]);
    assert_eq!(codes(&standard), ["utf8_bom"]);
    assert!(!standard.is_valid());
    let skillcase = run(Profile::Skillcase, "demo", &[("SKILL.md", &text)]);
    assert_eq!(codes(&skillcase), ["utf8_bom"]);
    assert!(skillcase.is_valid());
}

#[test]
fn crlf_is_reported_as_a_warning_in_skillcase_only() {
    let text = skill_md(OK).replace('\n', "\r\n");
    assert_eq!(codes(&run(Profile::Skillcase, "demo", &[("SKILL.md", &text)])), ["crlf_line_endings"]);
    assert!(run(Profile::Standard, "demo", &[("SKILL.md", &text)]).findings.is_empty());
}

#[test]
fn unparseable_frontmatter_gives_no_skill() {
    let v = run(Profile::Skillcase, "demo", &[("SKILL.md", "---\nname: [demo\n---\n")]);
    assert_eq!(codes(&v), ["yaml_syntax"]);
    assert!(v.skill.is_none());
}

#[test]
fn findings_point_at_the_file_line_and_column() {
    let v = run(Profile::Standard, "demo", &[("SKILL.md", "---\ndescription: d\nname: Demo\n---\n")]);
    let f = v.findings.iter().find(|f| f.code == "name_uppercase").unwrap();
    assert_eq!(f.location(), "SKILL.md:3:7");
}

#[test]
fn name_rules_each_have_their_code() {
    let cases = [
        ("Demo", "name_uppercase"),
        ("-demo", "name_hyphen_edge"),
        ("de--mo", "name_consecutive_hyphens"),
        ("de_mo", "name_invalid_chars"),
        ("de mo", "name_invalid_chars"),
    ];
    for (name, code) in cases {
        let v = run(
            Profile::Standard,
            name,
            &[("SKILL.md", &skill_md(&format!("name: {name}\ndescription: d")))],
        );
        assert_eq!(codes(&v), [code], "{name}");
    }
}

#[test]
fn a_skill_name_is_one_plain_folder_name_and_never_a_path() {
    for good in ["frete", "a", "pdf-2", "navegação", &"a".repeat(64)] {
        assert!(is_skill_name(good), "{good} refused");
    }
    let long = "a".repeat(65);
    let bad = [
        "",
        "..",
        ".",
        "../victim",
        "../../.ssh",
        "/etc",
        "a/b",
        "a\\b",
        "skillcase.lock",
        ".skillcase-staging-x",
        "a\0b",
        "a\nb",
        "a\u{1b}]52;c;x",
        "Frete",
        "-a",
        "a-",
        "a--b",
        "a_b",
        "a b",
        &long,
        "ﬁle",
    ];
    for name in bad {
        assert!(!is_skill_name(name), "{name:?} accepted");
    }
}

#[test]
fn a_name_over_64_characters_is_too_long() {
    let name = "a".repeat(65);
    let v =
        run(Profile::Standard, &name, &[("SKILL.md", &skill_md(&format!("name: {name}\ndescription: d")))]);
    assert_eq!(codes(&v), ["name_too_long"]);
}

#[test]
fn the_name_must_equal_the_folder_name() {
    let v = run(Profile::Standard, "other", &[("SKILL.md", &skill_md(OK))]);
    assert_eq!(codes(&v), ["name_mismatch"]);
}

#[test]
fn a_root_layout_zip_has_no_folder_check() {
    let v =
        validate_package(&pkg(None, &[("SKILL.md", &skill_md(OK))]), Profile::Standard, &Policy::default());
    assert!(v.findings.is_empty(), "{:?}", v.findings);
}

#[test]
fn a_root_layout_zip_is_refused_by_the_claude_profile() {
    let v = validate_package(&pkg(None, &[("SKILL.md", &skill_md(OK))]), Profile::Claude, &Policy::default());
    assert_eq!(codes(&v), ["zip_root_layout"]);
}

#[test]
fn non_ascii_lowercase_names_pass_standard_and_warn_in_skillcase() {
    let md = skill_md("name: navegação\ndescription: d");
    assert!(run(Profile::Standard, "navegação", &[("SKILL.md", &md)]).findings.is_empty());
    assert_eq!(codes(&run(Profile::Skillcase, "navegação", &[("SKILL.md", &md)])), ["name_non_ascii"]);
}

#[test]
fn a_list_as_name_is_a_type_error_not_a_panic() {
    let v = run(Profile::Standard, "demo", &[("SKILL.md", &skill_md("name: [a]\ndescription: d"))]);
    assert_eq!(codes(&v), ["field_type"]);
    assert_eq!(v.skill.unwrap().name, "demo");
}

#[test]
fn missing_and_empty_required_fields_have_their_codes() {
    assert_eq!(
        codes(&run(Profile::Standard, "demo", &[("SKILL.md", &skill_md("name: demo"))])),
        ["description_missing"]
    );
    assert_eq!(
        codes(&run(Profile::Standard, "demo", &[("SKILL.md", &skill_md("description: d"))])),
        ["name_missing"]
    );
    assert_eq!(
        codes(&run(Profile::Standard, "demo", &[("SKILL.md", &skill_md("name: demo\ndescription: \"  \""))])),
        ["description_empty"]
    );
    assert_eq!(
        codes(&run(Profile::Standard, "demo", &[("SKILL.md", &skill_md("name:\ndescription: d"))])),
        ["name_empty"]
    );
}

#[test]
fn a_description_over_1024_characters_is_too_long() {
    let md = skill_md(&format!("name: demo\ndescription: {}", "x".repeat(1025)));
    assert_eq!(codes(&run(Profile::Standard, "demo", &[("SKILL.md", &md)])), ["description_too_long"]);
}

#[test]
fn compatibility_must_be_1_to_500_characters() {
    let empty = skill_md(&format!("{OK}\ncompatibility: \"\""));
    assert_eq!(codes(&run(Profile::Standard, "demo", &[("SKILL.md", &empty)])), ["compatibility_empty"]);
    let long = skill_md(&format!("{OK}\ncompatibility: {}", "x".repeat(501)));
    assert_eq!(codes(&run(Profile::Standard, "demo", &[("SKILL.md", &long)])), ["compatibility_too_long"]);
}

#[test]
fn metadata_must_map_text_to_text() {
    let not_map = skill_md(&format!("{OK}\nmetadata: author"));
    assert_eq!(codes(&run(Profile::Standard, "demo", &[("SKILL.md", &not_map)])), ["metadata_not_map"]);
    let list_value = skill_md(&format!("{OK}\nmetadata:\n  authors: [a, b]"));
    assert_eq!(
        codes(&run(Profile::Standard, "demo", &[("SKILL.md", &list_value)])),
        ["metadata_value_not_string"]
    );
}

#[test]
fn an_unquoted_number_in_metadata_is_read_as_text_with_a_skillcase_warning() {
    let md = skill_md(&format!("{OK}\nmetadata:\n  version: 1.0"));
    assert!(run(Profile::Standard, "demo", &[("SKILL.md", &md)]).findings.is_empty());
    let v = run(Profile::Skillcase, "demo", &[("SKILL.md", &md)]);
    assert_eq!(codes(&v), ["metadata_value_unquoted"]);
    assert_eq!(v.skill.unwrap().metadata["version"], "1.0");
}

#[test]
fn unknown_keys_are_errors_in_standard_and_warnings_in_skillcase() {
    let md = skill_md(&format!("{OK}\nauthor: Ana"));
    assert_eq!(codes(&run(Profile::Standard, "demo", &[("SKILL.md", &md)])), ["unknown_key"]);
    assert!(!run(Profile::Standard, "demo", &[("SKILL.md", &md)]).is_valid());
    let v = run(Profile::Skillcase, "demo", &[("SKILL.md", &md)]);
    assert_eq!(codes(&v), ["unknown_key"]);
    assert!(v.is_valid());
}

#[test]
fn extension_keys_in_frontmatter_are_unknown_to_standard_but_read_by_skillcase() {
    let md = skill_md(&format!("{OK}\ncategory: vendas"));
    assert_eq!(codes(&run(Profile::Standard, "demo", &[("SKILL.md", &md)])), ["unknown_key"]);
    let v = run(Profile::Skillcase, "demo", &[("SKILL.md", &md)]);
    assert!(v.findings.is_empty(), "{:?}", v.findings);
    assert_eq!(v.skill.unwrap().config.category.as_deref(), Some("vendas"));
}

#[test]
fn claude_code_keys_pass_through_with_a_warning() {
    let md = skill_md(&format!("{OK}\nuser-invocable: true\nargument-hint: \"[file]\""));
    let v = run(Profile::Skillcase, "demo", &[("SKILL.md", &md)]);
    assert_eq!(codes(&v), ["claude_code_key", "claude_code_key"]);
    assert!(v.is_valid());
}

#[test]
fn duplicate_keys_make_the_skill_invalid() {
    let md = skill_md(&format!("{OK}\nname: demo"));
    let v = run(Profile::Standard, "demo", &[("SKILL.md", &md)]);
    assert_eq!(codes(&v), ["duplicate_key"]);
    assert!(!v.is_valid());
}

#[test]
fn claude_forbids_reserved_words_and_xml_tags() {
    let md = skill_md("name: claude-helper\ndescription: Use <b>this</b> skill");
    let v = run(Profile::Claude, "claude-helper", &[("SKILL.md", &md)]);
    assert_eq!(codes(&v), ["name_reserved_word", "xml_tag"]);
}

#[test]
fn claude_allows_only_the_six_standard_keys() {
    let md = skill_md(&format!("{OK}\nuser-invocable: true"));
    assert_eq!(codes(&run(Profile::Claude, "demo", &[("SKILL.md", &md)])), ["unknown_key"]);
}

#[test]
fn claude_limits_the_file_count_to_200() {
    let md = skill_md(OK);
    let names: Vec<String> = (0..200).map(|i| format!("references/r{i}.md")).collect();
    let mut files: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "x")).collect();
    files.push(("SKILL.md", &md));
    assert_eq!(codes(&run(Profile::Claude, "demo", &files)), ["too_many_files"]);
}

#[test]
fn skillcase_applies_the_policy_limits() {
    let md = skill_md(OK);
    let mut policy = Policy::default();
    policy.limits.max_files = 2;
    policy.limits.max_file_bytes = 10;
    policy.limits.max_total_bytes = 100;
    let big = "x".repeat(11);
    let p = pkg(Some("demo"), &[("SKILL.md", &md), ("references/a.md", &big), ("references/b.md", "b")]);
    let v = validate_package(&p, Profile::Skillcase, &policy);
    assert_eq!(codes(&v), ["too_many_files", "package_too_large", "file_too_large", "file_too_large"]);
}

#[test]
fn assets_must_have_an_allowed_extension() {
    let v = run(Profile::Skillcase, "demo", &[("SKILL.md", &skill_md(OK)), ("assets/app.dmg", "x")]);
    assert_eq!(codes(&v), ["asset_extension_not_allowed"]);
}

#[test]
fn executable_content_is_refused_naming_the_setting() {
    let v = run(Profile::Skillcase, "demo", &[("SKILL.md", &skill_md(OK)), ("scripts/run.py", "print(1)")]);
    assert_eq!(codes(&v), ["executable_content", "agent_tool_required"]);
    assert!(v.findings[0].hint.as_ref().unwrap().contains("allow_executable"));
    assert_eq!(v.skill.unwrap().skill_type, SkillType::ComputeToolkit);
}

#[test]
fn executable_content_is_accepted_when_the_policy_allows_it() {
    let policy = Policy { allow_executable: true, ..Policy::default() };
    let p = pkg(Some("demo"), &[("SKILL.md", &skill_md(OK)), ("scripts/run.py", "print(1)")]);
    let v = validate_package(&p, Profile::Skillcase, &policy);
    assert_eq!(codes(&v), ["agent_tool_required"]);
}

#[test]
fn an_exec_bit_anywhere_is_executable_content() {
    let mut p = pkg(Some("demo"), &[("SKILL.md", &skill_md(OK)), ("references/tool", "data")]);
    p.files[1].unix_mode = Some(0o755);
    let v = validate_package(&p, Profile::Skillcase, &Policy::default());
    assert_eq!(codes(&v), ["executable_content"]);
}

#[test]
fn required_references_must_exist() {
    let config = "references:\n  required: [references/tabela.md]\n  routes:\n    - match: [troca]\n      required_refs: [references/trocas.md]\n";
    let v = run(
        Profile::Skillcase,
        "demo",
        &[("SKILL.md", &skill_md(OK)), ("skill.config.yaml", config), ("references/tabela.md", "# T")],
    );
    assert_eq!(codes(&v), ["reference_missing"]);
    assert_eq!(v.findings[0].location(), "skill.config.yaml:5:23");
}

#[test]
fn broken_body_links_are_case_sensitive_warnings() {
    let md = format!("---\n{OK}\n---\nRead [the table](references/Tabela.md) first.\n");
    let v = run(Profile::Skillcase, "demo", &[("SKILL.md", &md), ("references/tabela.md", "# T")]);
    assert_eq!(codes(&v), ["body_link_broken"]);
    assert_eq!(v.findings[0].location(), "SKILL.md:5:18");
}

#[test]
fn a_body_over_200_lines_warns_in_skillcase() {
    let md = format!("---\n{OK}\n---\n{}", "line\n".repeat(201));
    assert_eq!(codes(&run(Profile::Skillcase, "demo", &[("SKILL.md", &md)])), ["body_long"]);
    assert!(run(Profile::Standard, "demo", &[("SKILL.md", &md)]).findings.is_empty());
}

#[test]
fn a_body_over_500_lines_or_5000_tokens_warns_in_every_profile() {
    let md = format!("---\n{OK}\n---\n{}", "line\n".repeat(501));
    assert_eq!(codes(&run(Profile::Standard, "demo", &[("SKILL.md", &md)])), ["body_too_long"]);
    let md = format!("---\n{OK}\n---\n{}", "word ".repeat(4100));
    assert_eq!(codes(&run(Profile::Standard, "demo", &[("SKILL.md", &md)])), ["body_too_many_tokens"]);
}

#[test]
fn nested_references_and_long_references_without_toc_warn() {
    let long = "text\n".repeat(301);
    let v = run(
        Profile::Standard,
        "demo",
        &[("SKILL.md", &skill_md(OK)), ("references/deep/a.md", "# A"), ("references/long.md", &long)],
    );
    assert_eq!(codes(&v), ["reference_nested", "reference_without_toc"]);
}

#[test]
fn compute_entry_needs_execute_skill_and_declared_type_must_agree() {
    let config = "type: compute-toolkit\ninterface:\n  input:\n    cep: { type: string, required: true }\n";
    let v = run(Profile::Skillcase, "demo", &[("SKILL.md", &skill_md(OK)), ("skill.config.yaml", config)]);
    assert_eq!(codes(&v), ["type_mismatch", "agent_tool_required"]);
    assert_eq!(v.findings[0].location(), "skill.config.yaml:1:1");
    assert_eq!(v.skill.unwrap().skill_type, SkillType::ComputeEntry);
}

#[test]
fn config_type_errors_are_reported_in_skillcase_only() {
    let config = "tags: preco\n";
    let files = [("SKILL.md", skill_md(OK)), ("skill.config.yaml", config.to_string())];
    let files: Vec<(&str, &str)> = files.iter().map(|(a, b)| (*a, b.as_str())).collect();
    assert_eq!(codes(&run(Profile::Skillcase, "demo", &files)), ["field_type"]);
    assert!(run(Profile::Standard, "demo", &files).findings.is_empty());
}

#[test]
fn profiles_parse_from_their_names() {
    assert_eq!("claude".parse::<Profile>(), Ok(Profile::Claude));
    assert_eq!(Profile::default(), Profile::Skillcase);
    assert!("strict".parse::<Profile>().is_err());
}

#[test]
fn claude_refuses_an_archive_inside_the_skill() {
    let files = [("SKILL.md", skill_md(OK)), ("assets/data.zip", "PK".to_string())];
    let files: Vec<(&str, &str)> = files.iter().map(|(p, c)| (*p, c.as_str())).collect();
    assert_eq!(codes(&run(Profile::Claude, "demo", &files)), ["nested_archive"]);
    assert!(!codes(&run(Profile::Standard, "demo", &files)).contains(&"nested_archive"));
}
