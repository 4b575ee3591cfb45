//! `skillcase catalogs …` and `skillcase inventory` run as the real binary: a static index served
//! on 127.0.0.1 is subscribed, pulled (the second time downloading only the file that changed),
//! installed as a fork and listed in the inventory with its catalog URL; a real `skillcase serve`
//! (its skills directory and the factory catalog) is a catalog too, over MCP; bad input exits 1 with its stable code.
//! A pull keeps its memory small however much it downloads, a malformed listing after a good pull
//! changes nothing and exits 1, and a catalog's token is kept in a private file, not in the
//! database.

use crate::support;

use std::fs;
use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use skillcase_testkit::file_server::FileServer;
use skillcase_testkit::mcp_catalog::{FakeMcpCatalog, Reply};
use support::process::ServeProcess;
use tempfile::TempDir;

const FRETE_MD: &str =
    "---\nname: frete\ndescription: Calcula o frete por CEP. Use quando o cliente pergunta do frete.\n---\n# Frete\n\nLeia references/tabela.md.\n";
const TABELA: &str = "# Tabela\nSP: 3 dias\n";

fn sha(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// The binary with its own data directory, skills directory and home folder.
fn skillcase(work: &TempDir) -> Command {
    let mut command = Command::cargo_bin("skillcase").unwrap();
    command
        .env("SKILLCASE_DATA_DIR", work.path().join("data"))
        .env("SKILLCASE_SKILLS_DIR", work.path().join("skills"))
        .env("HOME", work.path().join("home"));
    command
}

fn json_of(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)))
}

fn text_of(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Serves `frete` (SKILL.md and a table) as a static index at `/cat/index.json`.
fn publish(server: &FileServer, table: &str) {
    let index = json!({ "skills": [ { "name": "frete", "version": "1.0", "description": "Frete", "files": [
        { "path": "SKILL.md", "sha256": sha(FRETE_MD.as_bytes()), "size": FRETE_MD.len() },
        { "path": "references/tabela.md", "sha256": sha(table.as_bytes()), "size": table.len() } ] } ] });
    server.put("/cat/index.json", index.to_string());
    server.put("/cat/frete/SKILL.md", FRETE_MD);
    server.put("/cat/frete/references/tabela.md", table);
}

fn work() -> TempDir {
    let work = TempDir::new().unwrap();
    fs::create_dir_all(work.path().join("skills")).unwrap();
    fs::create_dir_all(work.path().join("home")).unwrap();
    work
}

#[test]
fn add_pull_install_and_inventory_round_trip_from_a_static_index() {
    let work = work();
    let server = FileServer::start();
    publish(&server, TABELA);
    let url = server.url("/cat/index.json");

    let added = skillcase(&work).args(["catalogs", "add", &url]).output().unwrap();
    assert!(added.status.success(), "{added:?}");
    assert_eq!(
        text_of(&added),
        format!("subscribed catalog 1: {url} (index)\npull it with `skillcase catalogs pull 1`\n")
    );

    let pulled = skillcase(&work).args(["catalogs", "pull", "--format", "json"]).output().unwrap();
    assert!(pulled.status.success(), "{pulled:?}");
    let report = json_of(&pulled);
    assert_eq!(
        report["pulled"][0]["skills"],
        json!([{ "name": "frete", "change": "new", "version": "1.0", "downloaded": 2 }])
    );

    let installed = skillcase(&work).args(["catalogs", "install", &url, "frete"]).output().unwrap();
    assert!(installed.status.success(), "{installed:?}");
    assert!(text_of(&installed).starts_with(&format!("installed frete 1.0 from {url} as library version ")));
    assert_eq!(fs::read_to_string(work.path().join("skills/frete/references/tabela.md")).unwrap(), TABELA);

    let inventory = skillcase(&work).args(["inventory", "--format", "json"]).output().unwrap();
    let skills = json_of(&inventory)["skills"].clone();
    assert_eq!(skills[0]["name"], "frete");
    assert_eq!(skills[0]["source"], "remote_catalog");
    assert_eq!(skills[0]["catalog_url"], url.as_str());
    assert_eq!(skills[0]["upstream_version"], "1.0");
}

#[test]
fn a_second_pull_downloads_only_the_file_that_changed_and_says_so() {
    let work = work();
    let server = FileServer::start();
    publish(&server, TABELA);
    let url = server.url("/cat/index.json");
    skillcase(&work).args(["catalogs", "add", &url]).assert().success();
    skillcase(&work).args(["catalogs", "pull", "1"]).assert().success();
    publish(&server, "# Tabela\nSP: 2 dias\n");
    server.take_requests();
    let pulled = skillcase(&work).args(["catalogs", "pull", "1"]).output().unwrap();
    assert!(pulled.status.success(), "{pulled:?}");
    assert_eq!(
        text_of(&pulled),
        format!(
            "catalog 1 {url}: 0 new, 1 updated, 0 unchanged, 0 removed, 0 revoked; 1 file(s) downloaded (20 bytes)\n  updated  frete 1.0\n"
        )
    );
    assert_eq!(server.take_requests(), ["GET /cat/index.json", "GET /cat/frete/references/tabela.md"]);
}

#[test]
fn skills_lists_an_update_available_and_upstream_removed() {
    let work = work();
    let server = FileServer::start();
    publish(&server, TABELA);
    let url = server.url("/cat/index.json");
    skillcase(&work).args(["catalogs", "add", &url]).assert().success();
    skillcase(&work).args(["catalogs", "pull"]).assert().success();
    skillcase(&work).args(["catalogs", "install", "1", "frete"]).assert().success();
    publish(&server, "# Tabela\nSP: 2 dias\n");
    skillcase(&work).args(["catalogs", "pull"]).assert().success();
    let listed = skillcase(&work).args(["catalogs", "skills"]).output().unwrap();
    assert_eq!(text_of(&listed), "1\tfrete\t1.0\t2 files  [installed as frete, update available]\n");

    server.put("/cat/index.json", json!({ "skills": [] }).to_string());
    skillcase(&work).args(["catalogs", "pull"]).assert().success();
    let listed = skillcase(&work).args(["catalogs", "skills"]).output().unwrap();
    assert_eq!(text_of(&listed), "1\tfrete\t1.0\t2 files  [upstream removed, installed as frete]\n");
    let inventory = skillcase(&work).args(["inventory"]).output().unwrap();
    assert!(text_of(&inventory).contains("[upstream removed]"), "{}", text_of(&inventory));
}

#[test]
fn an_ftp_url_exits_1_with_catalog_url_invalid_in_text_and_json() {
    let work = work();
    let text =
        skillcase(&work).args(["catalogs", "add", "ftp://skills.example/index.json"]).output().unwrap();
    assert_eq!(text.status.code(), Some(1));
    assert!(text_of(&text).starts_with("error catalog_url_invalid: "), "{}", text_of(&text));
    let json = skillcase(&work)
        .args(["catalogs", "add", "ftp://skills.example/index.json", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(json.status.code(), Some(1));
    assert_eq!(json_of(&json)["error"]["code"], "catalog_url_invalid");
}

#[test]
fn installing_from_a_catalog_not_subscribed_exits_1_with_catalog_not_found() {
    let work = work();
    let output = skillcase(&work)
        .args(["catalogs", "install", "https://nowhere.example/i.json", "frete"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(text_of(&output).starts_with("error catalog_not_found: "), "{}", text_of(&output));
}

#[test]
fn a_tampered_file_exits_1_with_catalog_digest_mismatch_and_the_last_pull_is_kept() {
    let work = work();
    let server = FileServer::start();
    publish(&server, TABELA);
    let url = server.url("/cat/index.json");
    skillcase(&work).args(["catalogs", "add", &url]).assert().success();
    server.put("/cat/frete/references/tabela.md", "# Tabela\nSP: 9 dias\n");
    let pulled = skillcase(&work).args(["catalogs", "pull", "--format", "json"]).output().unwrap();
    assert_eq!(pulled.status.code(), Some(1));
    let report = json_of(&pulled);
    assert_eq!(report["failed"][0]["error"]["code"], "catalog_digest_mismatch");
    assert_eq!(report["failed"][0]["error"]["details"]["path"], "references/tabela.md");
    let listed = skillcase(&work).args(["catalogs", "list"]).output().unwrap();
    assert!(
        text_of(&listed).contains("never pulled\n\tlast pull failed: catalog_digest_mismatch: "),
        "{}",
        text_of(&listed)
    );
}

#[test]
fn inventory_names_the_agent_folders_a_skill_is_installed_in_as_csv() {
    let work = work();
    let skill = work.path().join("skills/frete");
    fs::create_dir_all(&skill).unwrap();
    fs::write(skill.join("SKILL.md"), FRETE_MD).unwrap();
    let project = work.path().join("project");
    fs::create_dir_all(&project).unwrap();
    let project = project.canonicalize().unwrap();
    skillcase(&work)
        .args(["install", "frete", "--target", "claude", "--project"])
        .arg(&project)
        .assert()
        .success();
    let output = skillcase(&work).args(["inventory", "--format", "csv"]).output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = text_of(&output);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("name,origin,version,digest,source,catalog_url,upstream_version,upstream_removed,update_available,installed")
    );
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!((row[0], row[1], row[4]), ("frete", "local", "local"));
    assert_eq!(row[3].len(), 64, "the live version's digest");
    assert_eq!(row[9], format!("claude-code:{}:in_sync", project.join(".claude/skills").display()));
}

/// A skill folder to serve.
fn served_skills(root: &Path) {
    let dir = root.join("frete");
    fs::create_dir_all(dir.join("references")).unwrap();
    fs::write(dir.join("SKILL.md"), FRETE_MD).unwrap();
    fs::write(dir.join("references/tabela.md"), TABELA).unwrap();
}

#[test]
fn a_skillcase_serve_is_a_catalog_over_mcp_pulled_and_installed_like_an_index() {
    let served = TempDir::new().unwrap();
    served_skills(served.path());
    let serve = ServeProcess::start(&["--skills-dir", served.path().to_str().unwrap()]);
    let url = format!("http://127.0.0.1:{}/mcp", serve.port);
    let work = work();
    let added = skillcase(&work)
        .args(["catalogs", "add", &url, "--token", &serve.token(), "--format", "json"])
        .output()
        .unwrap();
    assert!(added.status.success(), "{added:?}");
    assert_eq!(
        (json_of(&added)["kind"].clone(), json_of(&added)["has_token"].clone()),
        (json!("mcp"), json!(true))
    );
    let pulled = skillcase(&work).args(["catalogs", "pull", "--format", "json"]).output().unwrap();
    assert!(pulled.status.success(), "{pulled:?}");
    let skills = json_of(&pulled)["pulled"][0]["skills"].as_array().unwrap().clone();
    let frete = skills.iter().find(|s| s["name"] == "frete").expect("the served skill is listed");
    assert_eq!(frete, &json!({ "name": "frete", "change": "new", "version": null, "downloaded": 2 }));
    let again = skillcase(&work).args(["catalogs", "pull", "--format", "json"]).output().unwrap();
    assert_eq!(json_of(&again)["pulled"][0]["files_downloaded"], 0);
    skillcase(&work).args(["catalogs", "install", "1", "frete"]).assert().success();
    assert_eq!(fs::read_to_string(work.path().join("skills/frete/SKILL.md")).unwrap(), FRETE_MD);
    assert_eq!(fs::read_to_string(work.path().join("skills/frete/references/tabela.md")).unwrap(), TABELA);
}

#[test]
fn an_mcp_catalog_without_its_token_is_catalog_unreachable_with_status_401() {
    let served = TempDir::new().unwrap();
    served_skills(served.path());
    let serve = ServeProcess::start(&["--skills-dir", served.path().to_str().unwrap()]);
    let url = format!("http://127.0.0.1:{}/mcp", serve.port);
    let work = work();
    let added = skillcase(&work)
        .args(["catalogs", "add", &url, "--kind", "mcp", "--format", "json"])
        .output()
        .unwrap();
    assert!(added.status.success(), "{added:?}");
    let pulled = skillcase(&work).args(["catalogs", "pull", "1", "--format", "json"]).output().unwrap();
    assert_eq!(pulled.status.code(), Some(1));
    let error = json_of(&pulled)["error"].clone();
    assert_eq!(
        (error["code"].clone(), error["details"]["status"].clone()),
        (json!("catalog_unreachable"), json!(401))
    );
}

#[test]
fn adding_an_mcp_catalog_without_its_token_says_401_rather_than_not_recognised() {
    let served = TempDir::new().unwrap();
    served_skills(served.path());
    let serve = ServeProcess::start(&["--skills-dir", served.path().to_str().unwrap()]);
    let url = format!("http://127.0.0.1:{}/mcp", serve.port);
    let work = work();
    let added = skillcase(&work).args(["catalogs", "add", &url, "--format", "json"]).output().unwrap();
    assert_eq!(added.status.code(), Some(1));
    let error = json_of(&added)["error"].clone();
    assert_eq!(
        (error["code"].clone(), error["details"]["status"].clone()),
        (json!("catalog_unreachable"), json!(401))
    );
}

/// An MCP catalog offering `frete` (its `SKILL.md`) on one page.
fn serve_frete(method: &str, params: &Value) -> Reply {
    let entry = json!({
        "uri": "skill://frete/SKILL.md",
        "frontmatter": { "name": "frete", "description": "Frete" },
        "resources": [{ "uri": "skill://frete/SKILL.md", "digest": format!("sha256:{}", sha(FRETE_MD.as_bytes())), "size": FRETE_MD.len() }],
    });
    match method {
        "skills/list" => Reply::Result(json!({ "skills": [entry] })),
        "resources/read" => {
            Reply::Result(json!({ "contents": [{ "uri": params["uri"], "text": FRETE_MD }] }))
        }
        _ => Reply::Raw("{}".into()),
    }
}

#[test]
fn a_malformed_skills_list_after_a_good_pull_exits_1_and_keeps_what_the_last_pull_found() {
    let work = work();
    let catalog = FakeMcpCatalog::start(serve_frete);
    skillcase(&work).args(["catalogs", "add", &catalog.url(), "--kind", "mcp"]).assert().success();
    skillcase(&work).args(["catalogs", "pull"]).assert().success();
    catalog.answer_with(|method, params| match method {
        "skills/list" => Reply::Raw(r#"{"jsonrpc":"2.0","id":3,"result":{"items":[]}}"#.into()),
        _ => serve_frete(method, params),
    });
    let pulled = skillcase(&work).args(["catalogs", "pull", "--format", "json"]).output().unwrap();
    assert_eq!(pulled.status.code(), Some(1), "{pulled:?}");
    assert_eq!(json_of(&pulled)["failed"][0]["error"]["code"], "catalog_index_invalid");
    let listed = skillcase(&work).args(["catalogs", "skills"]).output().unwrap();
    assert_eq!(text_of(&listed), "1\tfrete\t-\t1 files\n", "not marked upstream removed");
}

#[test]
fn a_catalog_token_is_kept_in_a_0600_file_and_the_database_holds_none_of_it() {
    const TOKEN: &str = "catalog-bearer-c0ffee5eed";
    let work = work();
    let catalog = FakeMcpCatalog::start(serve_frete);
    skillcase(&work).args(["catalogs", "add", &catalog.url(), "--token", TOKEN]).assert().success();
    skillcase(&work).args(["catalogs", "pull"]).assert().success();
    assert!(catalog.authorizations().iter().all(|a| a.as_deref() == Some(&*format!("Bearer {TOKEN}"))));
    let data = work.path().join("data");
    let tokens: Vec<_> =
        fs::read_dir(data.join("catalog-tokens")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(tokens.len(), 1);
    assert_eq!(fs::read_to_string(&tokens[0]).unwrap(), TOKEN);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&tokens[0]), 0o600, "the token file");
        assert_eq!(mode(&data), 0o700, "the data directory");
        assert_eq!(mode(&data.join("skillcase.sqlite3")), 0o600, "the database");
    }
    for file in ["skillcase.sqlite3", "skillcase.sqlite3-wal"] {
        let bytes = fs::read(data.join(file)).unwrap_or_default();
        assert!(!bytes.windows(TOKEN.len()).any(|w| w == TOKEN.as_bytes()), "{file} holds the token");
    }
}

/// The peak resident memory of a process that ran `command` to its end, read from `/proc` while
/// it ran (Linux; `None` elsewhere).
fn peak_memory_of(mut command: std::process::Command) -> (std::process::ExitStatus, Option<u64>) {
    let mut child = command.stdout(std::process::Stdio::null()).spawn().unwrap();
    let mut peak = None;
    loop {
        if let Some(hwm) = skillcase_testkit::hostile::peak_resident_bytes_of(child.id()) {
            peak = Some(hwm);
        }
        if let Some(status) = child.try_wait().unwrap() {
            return (status, peak);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn an_index_pull_streams_its_downloads_to_disk_instead_of_holding_them() {
    const SKILLS: usize = 24;
    const FILES: usize = 5;
    const FILE_BYTES: usize = 1_000_000;
    let work = work();
    let server = FileServer::start();
    let mut listed = Vec::new();
    for s in 0..SKILLS {
        let name = format!("s{s}");
        let skill_md =
            format!("---\nname: {name}\ndescription: Big skill {s}. Use when testing.\n---\n# {name}\n");
        let mut files =
            vec![json!({ "path": "SKILL.md", "sha256": sha(skill_md.as_bytes()), "size": skill_md.len() })];
        server.put(&format!("/cat/{name}/SKILL.md"), skill_md.clone());
        for f in 0..FILES - 1 {
            let bytes: Vec<u8> = (0..FILE_BYTES).map(|i| ((i * 31 + s * 7 + f * 13) % 251) as u8).collect();
            files.push(
                json!({ "path": format!("assets/f{f}.bin"), "sha256": sha(&bytes), "size": bytes.len() }),
            );
            server.put(&format!("/cat/{name}/assets/f{f}.bin"), bytes);
        }
        listed.push(json!({ "name": name, "files": files }));
    }
    server.put("/cat/index.json", json!({ "skills": listed }).to_string());
    let url = server.url("/cat/index.json");
    skillcase(&work).args(["catalogs", "add", &url]).assert().success();

    let mut pull = std::process::Command::new(assert_cmd::cargo::cargo_bin("skillcase"));
    pull.args(["catalogs", "pull", "1"])
        .env("SKILLCASE_DATA_DIR", work.path().join("data"))
        .env("SKILLCASE_SKILLS_DIR", work.path().join("skills"))
        .env("HOME", work.path().join("home"));
    let (status, peak) = peak_memory_of(pull);
    assert!(status.success(), "{status:?}");
    let downloaded = (SKILLS * (FILES - 1) * FILE_BYTES) as u64;
    if let Some(peak) = peak {
        assert!(peak < downloaded / 2, "peak {peak} bytes for {downloaded} bytes downloaded");
    }
    let listed = skillcase(&work).args(["catalogs", "skills"]).output().unwrap();
    assert_eq!(text_of(&listed).lines().count(), SKILLS);
}
