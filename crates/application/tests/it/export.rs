//! Export and the security scan as the application's actions: a library skill exported to a
//! `.skill` file imports back to the same manifest (same files, same digests, the same version),
//! and a library skill's scan names what it found.

use std::fs;
use std::path::Path;

use skillcase_application::{App, AppOptions};

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

async fn app_over(dir: &Path) -> App {
    let options = AppOptions {
        skills_dir: Some(dir.join("skills")),
        catalog_dir: None,
        background: false,
        ..AppOptions::new(dir.join("data"))
    };
    let app = App::start(options).await.unwrap();
    app.scanned().await.unwrap();
    app
}

#[tokio::test(flavor = "multi_thread")]
async fn an_exported_skill_imports_back_to_the_same_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("skills/frete");
    write(&skill, "SKILL.md", "---\nname: frete\ndescription: Calcula o frete. Use quando o cliente pergunta do frete.\n---\n# Frete\n\nLeia references/tabela.md.\n");
    write(&skill, "references/tabela.md", "# Tabela\n");
    write(&skill, "templates/resposta.txt", "O frete é R$ 10.\n");
    write(&skill, ".DS_Store", "junk");
    let app = app_over(dir.path()).await;
    let before = app.skill_detail("frete".into()).await.unwrap();

    let file = dir.path().join("frete.skill");
    let report = app.export_skill("frete".into(), file.clone()).await.unwrap();
    assert_eq!((report.name.as_str(), report.files), ("frete", 3));
    assert_eq!(report.bytes, fs::metadata(&file).unwrap().len());

    let imported = app.import_skill(file, false).await.unwrap();
    assert_eq!(imported.refused, None, "{:?}", imported.findings);
    assert!(imported.unchanged, "the imported content is a version the library already has");
    let after = app.skill_detail("frete".into()).await.unwrap();
    assert_eq!(after.manifest, before.manifest);
    let paths: Vec<&str> = after.manifest.iter().map(|m| m.path.as_str()).collect();
    assert_eq!(paths, ["SKILL.md", "references/tabela.md", "templates/resposta.txt"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_export_refused_by_the_upload_rules_has_its_code_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("skills/claude-frete"),
        "SKILL.md",
        "---\nname: claude-frete\ndescription: Calcula o frete. Use quando o cliente pergunta do frete.\n---\n# Frete\n",
    );
    let app = app_over(dir.path()).await;
    let file = dir.path().join("out.skill");
    let error = app.export_skill("claude-frete".into(), file.clone()).await.unwrap_err();
    assert_eq!(error.code, "export_refused");
    assert_eq!(error.details.unwrap()["findings"][0]["code"], "name_reserved_word");
    assert!(!file.exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_scan_of_a_library_skill_names_each_finding_and_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("skills/frete"),
        "SKILL.md",
        "---\nname: frete\ndescription: Calcula o frete. Use quando o cliente pergunta do frete.\n---\nPesquisa: https://bit.ly/acme\n",
    );
    let app = app_over(dir.path()).await;
    let findings = app.scan_skill("frete".into()).await.unwrap();
    let found: Vec<(&str, &str, Option<u32>)> =
        findings.iter().map(|f| (f.code.as_str(), f.file.as_str(), f.line)).collect();
    assert_eq!(found, [("link_shortener", "SKILL.md", Some(5))]);
    assert_eq!(app.scan_skill("nothing".into()).await.unwrap_err().code, "skill_not_found");
}
