//! Golden tests for the three disclosure levels (SPEC A6): the skills are built here, the exact
//! text the agent receives sits next to them, byte for byte.

use crate::support;

use std::collections::HashMap;

use skillcase_common::error::Coded;
use skillcase_skill::disclosure::{
    activation, activation_plan, dir_reader, file, index, ActivationPlan, DisclosureError, IndexEntryInfo,
    IndexFormat, DEFAULT_BUDGET,
};
use skillcase_skill::model::{InputField, Interface, References, Route, Skill, SkillType};
use support::{skill, strings, with_files};

/// The most a level-2/3 read takes from one file (the default policy's limit).
const MAX_READ: u64 = 1024 * 1024;

const SKILLCASE_PREAMBLE: &str = "\
You can use the skills listed below. Scan the list before you answer and use a skill whenever its description fits the request.
- type=\"prompt\": read it with read_skill(name), then follow it.
- type=\"compute-entry\": run it with execute_skill(name, input), passing the inputs on its `input:` line.
- type=\"compute-toolkit\": read it with read_skill(name), then run its scripts with your shell tool.
When a read returns <skill_required_references>, read every document listed there with read_skill_file before you act.
";

/// A reader over in-memory files, failing for anything else.
fn reader(files: &[(&str, &[u8])]) -> impl Fn(&str) -> Result<Vec<u8>, String> {
    let files: HashMap<String, Vec<u8>> = files.iter().map(|(p, b)| (p.to_string(), b.to_vec())).collect();
    move |path: &str| files.get(path).cloned().ok_or_else(|| format!("no such file: {path}"))
}

fn hidden(mut s: Skill) -> Skill {
    s.config.hidden = true;
    s
}

// ---------------------------------------------------------------- level 1, agentskills

#[test]
fn agentskills_index_lists_visible_skills_by_name_with_escaped_values() {
    let skills = [
        skill("pdf-reader", "Read & extract <text> from \"PDF\" files, it's fast"),
        hidden(skill("segredo", "Never listed")),
        skill("frete", "Calcula o frete e o prazo de entrega"),
    ];
    let out = index(&skills, IndexFormat::Agentskills, DEFAULT_BUDGET);
    assert_eq!(
        out.text,
        "<available_skills>
<skill>
<name>
frete
</name>
<description>
Calcula o frete e o prazo de entrega
</description>
<location>
/skills/frete/SKILL.md
</location>
</skill>
<skill>
<name>
pdf-reader
</name>
<description>
Read &amp; extract &lt;text&gt; from &quot;PDF&quot; files, it&#x27;s fast
</description>
<location>
/skills/pdf-reader/SKILL.md
</location>
</skill>
</available_skills>"
    );
    let names: Vec<&str> = out.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["frete", "pdf-reader"]);
}

#[test]
fn agentskills_location_is_not_escaped() {
    let mut s = skill("frete", "Frete");
    s.dir = "/home/ana/R&D <skills>/frete".into();
    let out = index(&[s], IndexFormat::Agentskills, DEFAULT_BUDGET);
    assert!(
        out.text.contains("<location>\n/home/ana/R&D <skills>/frete/SKILL.md\n</location>"),
        "{}",
        out.text
    );
}

#[test]
fn agentskills_location_names_lowercase_skill_md_when_that_is_the_file() {
    let mut s = skill("frete", "Frete");
    s.files = vec![support::file("skill.md", 10)];
    let out = index(&[s], IndexFormat::Agentskills, DEFAULT_BUDGET);
    assert!(out.text.contains("<location>\n/skills/frete/skill.md\n</location>"), "{}", out.text);
}

#[test]
fn agentskills_location_adds_no_second_separator_after_a_folder_ending_in_one() {
    let mut s = skill("frete", "Frete");
    s.dir = "/skills/frete/".into();
    let out = index(&[s], IndexFormat::Agentskills, DEFAULT_BUDGET);
    assert!(out.text.contains("<location>\n/skills/frete/SKILL.md\n</location>"), "{}", out.text);
}

#[test]
fn empty_list_renders_the_bare_frame_in_agentskills() {
    let out = index::<Skill>(&[], IndexFormat::Agentskills, DEFAULT_BUDGET);
    assert_eq!(out.text, "<available_skills>\n</available_skills>");
    assert_eq!(out.used_chars, 38);
    assert!(out.entries.is_empty());
}

#[test]
fn only_hidden_skills_render_like_an_empty_list() {
    let out = index(&[hidden(skill("a", "A"))], IndexFormat::Agentskills, DEFAULT_BUDGET);
    assert_eq!(out.text, "<available_skills>\n</available_skills>");
    assert!(out.entries.is_empty());
}

// ---------------------------------------------------------------- level 1, budget

/// Each of these renders as a 106-character agentskills entry plus its newline (107); the frame
/// is 38 characters.
fn three_small_skills() -> Vec<Skill> {
    vec![skill("c", "C"), skill("a", "A"), skill("b", "B")]
}

#[test]
fn budget_counts_the_whole_text_and_includes_a_skill_that_fits_exactly() {
    let out = index(&three_small_skills(), IndexFormat::Agentskills, 38 + 2 * 107);
    assert_eq!(out.used_chars, 252);
    assert_eq!(out.text.chars().count(), 252);
    assert_eq!(
        out.entries,
        [
            IndexEntryInfo { name: "a".into(), included: true, position: 0, chars: 107 },
            IndexEntryInfo { name: "b".into(), included: true, position: 1, chars: 107 },
            IndexEntryInfo { name: "c".into(), included: false, position: 2, chars: 107 },
        ]
    );
}

#[test]
fn a_skill_one_character_over_the_budget_is_left_out_whole() {
    let out = index(&three_small_skills(), IndexFormat::Agentskills, 38 + 2 * 107 - 1);
    assert_eq!(
        out.text,
        "<available_skills>
<skill>
<name>
a
</name>
<description>
A
</description>
<location>
/skills/a/SKILL.md
</location>
</skill>
</available_skills>"
    );
    let included: Vec<bool> = out.entries.iter().map(|e| e.included).collect();
    assert_eq!(included, [true, false, false]);
}

#[test]
fn the_list_is_cut_not_thinned_so_a_small_skill_after_a_big_one_is_cut_too() {
    let skills = [skill("a", "A"), skill("b", &"long ".repeat(100)), skill("c", "C")];
    let out = index(&skills, IndexFormat::Agentskills, 38 + 2 * 107 + 10);
    let included: Vec<bool> = out.entries.iter().map(|e| e.included).collect();
    assert_eq!(included, [true, false, false]);
    assert!(!out.text.contains("<name>\nc\n</name>"));
}

#[test]
fn budget_counts_characters_not_bytes() {
    // "ção" is 3 characters and 5 bytes; entry = 106 - 1 + 3 = 108 characters, plus newline.
    let out = index(&[skill("a", "ção")], IndexFormat::Agentskills, 38 + 109);
    assert!(out.entries[0].included);
    assert_eq!(out.used_chars, 147);
    assert_eq!(out.text.len(), 149);
}

#[test]
fn a_budget_smaller_than_the_frame_still_renders_the_frame() {
    let out = index(&[skill("a", "A")], IndexFormat::Agentskills, 5);
    assert_eq!(out.text, "<available_skills>\n</available_skills>");
    assert!(!out.entries[0].included);
}

#[test]
fn a_large_library_is_listed_and_cut_exactly_as_its_skills_render_one_at_a_time() {
    // 1,500 skills, given in reverse order: more than one unit of the parallel rendering.
    let skills: Vec<Skill> = (0..1500).rev().map(|i| skill(&format!("s{i:04}"), "D & more")).collect();
    let alone = |s: &Skill| index(std::slice::from_ref(s), IndexFormat::Agentskills, usize::MAX);
    let entry_chars = alone(&skills[0]).entries[0].chars;
    let out = index(&skills, IndexFormat::Agentskills, 38 + 700 * entry_chars);

    let names: Vec<String> = (0..1500).map(|i| format!("s{i:04}")).collect();
    assert_eq!(out.entries.iter().map(|e| e.name.clone()).collect::<Vec<_>>(), names);
    assert!(out.entries.iter().enumerate().all(|(i, e)| e.position == i && e.chars == entry_chars));
    assert_eq!(out.entries.iter().filter(|e| e.included).count(), 700);
    assert!(out.entries[..700].iter().all(|e| e.included));
    let mut expected = String::from("<available_skills>\n");
    for s in skills.iter().rev().take(700) {
        let text = alone(s).text;
        expected.push_str(&text["<available_skills>\n".len()..text.len() - "</available_skills>".len()]);
    }
    expected.push_str("</available_skills>");
    assert_eq!(out.text, expected);
}

// ---------------------------------------------------------------- level 1, skillcase

fn compute_entry_skill() -> Skill {
    let mut s = skill("cep-lookup", "Busca o endereço pelo \"CEP\".");
    s.skill_type = SkillType::ComputeEntry;
    s.config.interface = Some(Interface {
        input: [
            ("cep".to_string(), InputField { type_: "string".into(), required: true }),
            ("numero".to_string(), InputField { type_: "integer".into(), required: false }),
        ]
        .into_iter()
        .collect(),
    });
    s
}

#[test]
fn skillcase_index_has_the_preamble_and_one_element_per_skill() {
    let mut frete = skill("frete", "Calcula o frete\n  e prazos de entrega.");
    frete.config.category = Some("vendas".into());
    frete.config.tags = strings(&["preco", "objecao"]);
    let mut toolkit = skill("deploy-kit", "Scripts <de> deploy & co");
    toolkit.skill_type = SkillType::ComputeToolkit;
    toolkit.config.category = Some(String::new());
    let skills = [frete, compute_entry_skill(), toolkit, hidden(skill("segredo", "x"))];

    let out = index(&skills, IndexFormat::Skillcase, DEFAULT_BUDGET);
    let expected = format!(
        "{SKILLCASE_PREAMBLE}
<available_skills>
<skill name=\"cep-lookup\" type=\"compute-entry\">Busca o endereço pelo &quot;CEP&quot;.
input: cep(string, required), numero(integer, optional)</skill>
<skill name=\"deploy-kit\" type=\"compute-toolkit\">Scripts &lt;de&gt; deploy &amp; co</skill>
<skill name=\"frete\" type=\"prompt\" category=\"vendas\" tags=\"preco,objecao\">Calcula o frete e prazos de entrega.</skill>
</available_skills>"
    );
    assert_eq!(out.text, expected);
}

#[test]
fn skillcase_attribute_values_are_escaped() {
    let mut s = skill("a", "A");
    s.config.category = Some("P&D \"interno\"".into());
    s.config.tags = strings(&["<x>", "it's"]);
    let out = index(&[s], IndexFormat::Skillcase, DEFAULT_BUDGET);
    assert!(out.text.contains(
        "<skill name=\"a\" type=\"prompt\" category=\"P&amp;D &quot;interno&quot;\" tags=\"&lt;x&gt;,it&#x27;s\">A</skill>"
    ));
}

#[test]
fn compute_entry_without_inputs_says_input_none() {
    let mut s = compute_entry_skill();
    s.config.interface = None;
    let out = index(&[s], IndexFormat::Skillcase, DEFAULT_BUDGET);
    assert!(out.text.contains("pelo &quot;CEP&quot;.\ninput: none</skill>"), "{}", out.text);
}

#[test]
fn empty_list_renders_preamble_and_bare_frame_in_skillcase() {
    let out = index::<Skill>(&[], IndexFormat::Skillcase, DEFAULT_BUDGET);
    assert_eq!(out.text, format!("{SKILLCASE_PREAMBLE}\n<available_skills>\n</available_skills>"));
}

#[test]
fn skillcase_budget_includes_the_preamble() {
    let frame = index::<Skill>(&[], IndexFormat::Skillcase, DEFAULT_BUDGET).used_chars;
    let entry = "<skill name=\"a\" type=\"prompt\">A</skill>\n".chars().count();
    let fits = index(&[skill("a", "A")], IndexFormat::Skillcase, frame + entry);
    assert!(fits.entries[0].included);
    assert_eq!(fits.entries[0].chars, entry);
    let cut = index(&[skill("a", "A")], IndexFormat::Skillcase, frame + entry - 1);
    assert!(!cut.entries[0].included);
}

#[test]
fn index_format_names_round_trip_and_unknown_names_are_refused() {
    assert_eq!("agentskills".parse::<IndexFormat>().unwrap(), IndexFormat::Agentskills);
    assert_eq!("skillcase".parse::<IndexFormat>().unwrap(), IndexFormat::Skillcase);
    let err = "xml".parse::<IndexFormat>().unwrap_err();
    assert_eq!(err.code(), "unknown_index_format");
    assert_eq!(serde_json::to_string(&IndexFormat::Agentskills).unwrap(), "\"agentskills\"");
}

// ---------------------------------------------------------------- level 2

/// A pt-BR skill with declared and routed references, support files, infrastructure files and a
/// root file outside the support folders.
fn trocas() -> Skill {
    let mut s = with_files(
        skill("trocas", "Trocas e devoluções"),
        &[
            "LICENSE",
            "README.md",
            "assets/modelo.txt",
            "references/politica.md",
            "references/prazos.md",
            "references/trocas.md",
            "scripts/requirements.txt",
            "skill.config.yaml",
        ],
    );
    s.body = "\n\n# Trocas e devoluções\n\nSiga a política.\n\n".into();
    s.config.references = References {
        required: strings(&["references/politica.md"]),
        routes: vec![
            Route {
                match_: strings(&["devolução", "troca"]),
                required_refs: strings(&["references/trocas.md", "references/politica.md"]),
            },
            Route { match_: strings(&["prazo"]), required_refs: strings(&["references/prazos.md"]) },
        ],
    };
    s
}

fn trocas_files() -> impl Fn(&str) -> Result<Vec<u8>, String> {
    reader(&[
        ("references/politica.md", b"# Politica\n\nSete dias.\n\n"),
        ("references/trocas.md", b"# Trocas\n\nCom nota fiscal.\n"),
        ("references/prazos.md", b"# Prazos\n\n30 dias."),
    ])
}

#[test]
fn activation_without_task_has_body_required_and_optional_blocks() {
    let text = activation(&trocas(), None, &trocas_files()).unwrap();
    assert_eq!(
        text,
        "# Trocas e devoluções

Siga a política.

<skill_required_references>
Read every document below with read_skill_file before you act.
- references/politica.md
</skill_required_references>

<skill_optional_references>
Read these with read_skill_file only when the task needs them.
- assets/modelo.txt
- references/prazos.md
- references/trocas.md
</skill_optional_references>"
    );
}

#[test]
fn activation_with_an_accent_free_task_inlines_the_matched_route_after_deduplicating() {
    let text =
        activation(&trocas(), Some("Cliente quer fazer a DEVOLUCAO do pedido"), &trocas_files()).unwrap();
    assert_eq!(
        text,
        "# Trocas e devoluções

Siga a política.

<skill_required_references>
Read every document below with read_skill_file before you act.
- references/politica.md
- references/trocas.md
</skill_required_references>

<skill_optional_references>
Read these with read_skill_file only when the task needs them.
- assets/modelo.txt
- references/prazos.md
</skill_optional_references>

<skill_route_matched_references>
--- references/trocas.md ---
# Trocas

Com nota fiscal.

--- references/politica.md ---
# Politica

Sete dias.
</skill_route_matched_references>"
    );
}

#[test]
fn routes_matched_together_keep_declaration_order_and_empty_blocks_disappear() {
    let text = activation(&trocas(), Some("Qual o prazo para a devolução?"), &trocas_files()).unwrap();
    assert_eq!(
        text,
        "# Trocas e devoluções

Siga a política.

<skill_required_references>
Read every document below with read_skill_file before you act.
- references/politica.md
- references/trocas.md
- references/prazos.md
</skill_required_references>

<skill_optional_references>
Read these with read_skill_file only when the task needs them.
- assets/modelo.txt
</skill_optional_references>

<skill_route_matched_references>
--- references/trocas.md ---
# Trocas

Com nota fiscal.

--- references/politica.md ---
# Politica

Sete dias.

--- references/prazos.md ---
# Prazos

30 dias.
</skill_route_matched_references>"
    );
}

#[test]
fn route_keywords_match_on_word_boundaries_only() {
    let plan = activation_plan(&trocas(), Some("trocaram meu prazos"));
    assert!(plan.route_matched.is_empty());
    assert_eq!(plan.required, ["references/politica.md"]);
}

#[test]
fn activation_plan_separates_required_optional_and_route_matched() {
    assert_eq!(
        activation_plan(&trocas(), Some("quero uma troca")),
        ActivationPlan {
            required: strings(&["references/politica.md", "references/trocas.md"]),
            optional: strings(&["assets/modelo.txt", "references/prazos.md"]),
            route_matched: strings(&["references/trocas.md", "references/politica.md"]),
        }
    );
}

#[test]
fn a_skill_with_only_a_body_activates_as_its_body() {
    let mut s = skill("oi", "Saudação");
    s.body = "Diga oi.\n".into();
    assert_eq!(activation(&s, Some("qualquer coisa"), &reader(&[])).unwrap(), "Diga oi.");
}

#[test]
fn body_keeps_its_first_line_indentation_and_inner_blank_lines() {
    let mut s = skill("code", "Code");
    s.body = "\n   \n    indented code\n\n\ntext  \n\n".into();
    assert_eq!(activation(&s, None, &reader(&[])).unwrap(), "    indented code\n\n\ntext");
}

#[test]
fn an_empty_body_leaves_only_the_blocks() {
    let s = with_files(skill("kit", "Kit"), &["templates/email.txt"]);
    assert_eq!(
        activation(&s, None, &reader(&[])).unwrap(),
        "<skill_optional_references>
Read these with read_skill_file only when the task needs them.
- templates/email.txt
</skill_optional_references>"
    );
}

#[test]
fn a_route_matched_document_that_is_not_text_is_listed_not_inlined() {
    let mut s = with_files(skill("tabela", "Tabela"), &["assets/tabela.pdf"]);
    s.body = "Use a tabela.".into();
    s.config.references.routes =
        vec![Route { match_: strings(&["preço"]), required_refs: strings(&["assets/tabela.pdf"]) }];
    let read = reader(&[("assets/tabela.pdf", b"%PDF-1.7\n\x00\x01\x02")]);
    assert_eq!(
        activation(&s, Some("qual o preco?"), &read).unwrap(),
        "Use a tabela.

<skill_required_references>
Read every document below with read_skill_file before you act.
- assets/tabela.pdf
</skill_required_references>

<skill_route_matched_references>
--- assets/tabela.pdf ---
(not inlined: not a text file, 12 bytes)
</skill_route_matched_references>"
    );
}

#[test]
fn a_route_matched_document_that_cannot_be_read_fails_with_file_unreadable() {
    let err = activation(&trocas(), Some("troca"), &reader(&[])).unwrap_err();
    assert_eq!(err.code(), "file_unreadable");
}

// ---------------------------------------------------------------- level 3

fn level3_skill() -> Skill {
    with_files(
        skill("trocas", "Trocas"),
        &["README.md", "assets/logo.png", "references/trocas.md", "scripts/.env", "skill.config.yaml"],
    )
}

fn level3_files() -> impl Fn(&str) -> Result<Vec<u8>, String> {
    reader(&[
        ("references/trocas.md", "\u{feff}# Trocas\r\nSete dias.\r\n".as_bytes()),
        ("assets/logo.png", b"\x89PNG\r\n\x1a\n\x00\x00"),
    ])
}

fn refused(path: &str) -> DisclosureError {
    file(&level3_skill(), path, &level3_files()).unwrap_err()
}

#[test]
fn level3_returns_the_text_verbatim_without_a_leading_bom() {
    assert_eq!(
        file(&level3_skill(), "references/trocas.md", &level3_files()).unwrap(),
        "# Trocas\r\nSete dias.\r\n"
    );
}

#[test]
fn level3_refuses_each_bad_path_with_its_own_code() {
    let cases = [
        ("", "path_empty"),
        ("references\\trocas.md", "path_backslash"),
        ("/references/trocas.md", "path_not_relative"),
        ("C:/references/trocas.md", "path_not_relative"),
        ("references//trocas.md", "path_empty_segment"),
        ("references/", "path_empty_segment"),
        ("references/./trocas.md", "path_dot_segment"),
        ("references/../SKILL.md", "path_dot_segment"),
        ("./references/trocas.md", "path_dot_segment"),
        ("SKILL.md", "path_not_support_folder"),
        ("README.md", "path_not_support_folder"),
        ("skill.config.yaml", "path_not_support_folder"),
        ("scripts/.env", "file_is_infrastructure"),
        ("references/nada.md", "file_not_in_skill"),
        ("references/Trocas.md", "file_not_in_skill"),
    ];
    for (path, code) in cases {
        assert_eq!(refused(path).code(), code, "path {path:?}");
    }
}

#[test]
fn level3_refusal_details_name_the_path() {
    let body = skillcase_common::ErrorBody::from(refused("references/../SKILL.md"));
    assert_eq!(body.code, "path_dot_segment");
    assert_eq!(body.details, Some(serde_json::json!({ "path": "references/../SKILL.md" })));
}

#[test]
fn level3_binary_file_is_refused_with_size_and_extension() {
    let err = refused("assets/logo.png");
    assert_eq!(
        err,
        DisclosureError::FileNotText { path: "assets/logo.png".into(), size: 10, extension: "png".into() }
    );
}

#[test]
fn level3_invalid_utf8_is_not_text() {
    let s = with_files(skill("a", "A"), &["references/latin1.txt"]);
    let read = reader(&[("references/latin1.txt", b"caf\xe9")]);
    assert_eq!(file(&s, "references/latin1.txt", &read).unwrap_err().code(), "file_not_text");
}

#[test]
fn dir_reader_reads_files_from_the_skill_folder() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("references")).unwrap();
    std::fs::write(tmp.path().join("references/a.md"), "# A\n").unwrap();
    let mut s = with_files(skill("a", "A"), &["references/a.md", "references/gone.md"]);
    s.dir = tmp.path().to_path_buf();
    assert_eq!(file(&s, "references/a.md", &dir_reader(&s, MAX_READ)).unwrap(), "# A\n");
    assert_eq!(
        file(&s, "references/gone.md", &dir_reader(&s, MAX_READ)).unwrap_err().code(),
        "file_unreadable"
    );
}

#[test]
fn skillcase_description_whitespace_collapses_to_single_spaces() {
    let out =
        index(&[skill("a", "  Frete\tgrátis \r\n para  o Sul ")], IndexFormat::Skillcase, DEFAULT_BUDGET);
    assert!(
        out.text.contains("<skill name=\"a\" type=\"prompt\">Frete grátis para o Sul</skill>"),
        "{}",
        out.text
    );
}

#[cfg(unix)]
#[test]
fn dir_reader_refuses_a_symbolic_link_planted_in_the_skill_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let skill_dir = tmp.path().join("a");
    std::fs::create_dir_all(skill_dir.join("references")).unwrap();
    std::fs::write(tmp.path().join("secret.txt"), "secret").unwrap();
    std::os::unix::fs::symlink(tmp.path().join("secret.txt"), skill_dir.join("references/a.md")).unwrap();
    std::os::unix::fs::symlink(tmp.path(), skill_dir.join("assets")).unwrap();
    let mut s = with_files(skill("a", "A"), &["references/a.md", "assets/secret.txt"]);
    s.dir = skill_dir;
    for path in ["references/a.md", "assets/secret.txt"] {
        let err = file(&s, path, &dir_reader(&s, MAX_READ)).unwrap_err();
        assert_eq!(err.code(), "file_unreadable", "{path}");
    }
}
