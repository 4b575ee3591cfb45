//! Workspace settings (SPEC C1 *Settings*, A8 limits, B4 port): defaults, every validation rule
//! with its stable code and field, and what Settings shows about the local API. Each test uses
//! a real SQLite file in a temporary directory.

use std::net::{Ipv4Addr, TcpListener};

use skillcase_application::info::ApiStatus;
use skillcase_application::settings::{self, view, Language, SettingsError, Theme};
use skillcase_application::token::TokenStore;
use skillcase_cases::endpoint::EndpointInput;
use skillcase_cases::OutboxRepository;
use skillcase_cases_sqlite::SqliteCases;
use skillcase_common::error::Coded;
use skillcase_common::ErrorBody;
use skillcase_skill::policy::{ImportLimits, Policy};
use skillcase_store::settings::{SettingsRepository, SqliteSettings};
use skillcase_store::{db, Database, DbError};

/// A fresh database as the application reaches it: its settings, and its cases for the
/// endpoint the Settings view shows.
#[derive(Debug)]
struct Db {
    settings: SqliteSettings,
    cases: SqliteCases,
}

impl SettingsRepository for Db {
    fn get(&self, key: &str) -> Result<Option<String>, DbError> {
        self.settings.get(key)
    }

    fn put(&self, key: &str, json: &str) -> Result<(), DbError> {
        self.settings.put(key, json)
    }

    fn remove(&self, key: &str) -> Result<(), DbError> {
        self.settings.remove(key)
    }
}

fn open_db(path: &std::path::Path) -> Db {
    let database = Database::open(path).unwrap();
    Db { settings: SqliteSettings::new(database.clone()), cases: SqliteCases::new(database) }
}

fn new_db() -> (tempfile::TempDir, std::path::PathBuf, Db) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(db::DATABASE_FILE);
    let conn = open_db(&path);
    (dir, path, conn)
}

fn read_view(
    conn: &Db,
    data_dir: &std::path::Path,
    status: ApiStatus,
) -> Result<view::SettingsView, ErrorBody> {
    view::read(conn, &conn.cases, &TokenStore::open(data_dir).unwrap(), data_dir, status, None)
}

const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/// The code and the `details.field` of a refusal, as the UI receives them.
fn code_and_field(err: SettingsError) -> (String, String) {
    let body = ErrorBody::from(err);
    let field = body.details.as_ref().and_then(|d| d["field"].as_str()).unwrap_or_default().to_string();
    (body.code, field)
}

fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap().local_addr().unwrap().port()
}

fn limits(max_files: u32, max_file_bytes: u64, max_total_bytes: u64, exts: &[&str]) -> Policy {
    Policy {
        allow_executable: false,
        allow_critical_findings: false,
        limits: ImportLimits {
            max_files,
            max_file_bytes,
            max_total_bytes,
            asset_extensions: exts.iter().map(|e| e.to_string()).collect(),
        },
    }
}

#[test]
fn settings_never_saved_read_as_the_spec_defaults() {
    let (_dir, _path, conn) = new_db();
    let saved = settings::load(&conn).unwrap();
    assert_eq!(saved.skills_dir, None);
    assert_eq!(saved.api_port, 7878);
    assert_eq!(saved.policy, Policy::default());
    assert_eq!(saved.policy.limits.max_files, 64);
    assert_eq!((saved.language, saved.theme), (Language::System, Theme::System));
}

#[test]
fn settings_survive_reopening_the_database() {
    let (_dir, path, conn) = new_db();
    settings::set_language(&conn, "pt-BR").unwrap();
    settings::set_theme(&conn, "dark").unwrap();
    drop(conn);
    let reopened = open_db(&path);
    let saved = settings::load(&reopened).unwrap();
    assert_eq!((saved.language, saved.theme), (Language::PtBr, Theme::Dark));
}

#[test]
fn an_existing_skills_directory_is_saved_in_canonical_form() {
    let (dir, _path, conn) = new_db();
    let skills = dir.path().join("my-skills");
    std::fs::create_dir(&skills).unwrap();
    let given = format!("{}/../my-skills/", skills.display());
    let saved = settings::set_skills_dir(&conn, Some(&given)).unwrap().unwrap();
    assert_eq!(saved, std::fs::canonicalize(&skills).unwrap());
    assert_eq!(settings::load(&conn).unwrap().skills_dir, Some(saved.display().to_string()));
}

#[test]
fn a_relative_skills_directory_is_refused_and_nothing_is_saved() {
    let (_dir, _path, conn) = new_db();
    let err = settings::set_skills_dir(&conn, Some("skills")).unwrap_err();
    assert!(err.to_string().contains("must be absolute"), "{err}");
    assert_eq!(code_and_field(err), ("invalid_skills_dir".into(), "skills_dir".into()));
    assert_eq!(settings::skills_dir_setting(&conn).unwrap(), None);
}

#[test]
fn a_missing_skills_directory_is_refused() {
    let (dir, _path, conn) = new_db();
    let missing = dir.path().join("nope");
    let err = settings::set_skills_dir(&conn, Some(missing.to_str().unwrap())).unwrap_err();
    assert_eq!(err.code(), "invalid_skills_dir");
    assert!(err.to_string().contains("does not exist"), "{err}");
}

#[test]
fn a_file_is_refused_as_skills_directory() {
    let (dir, _path, conn) = new_db();
    let file = dir.path().join("SKILL.md");
    std::fs::write(&file, "---\nname: x\n---\n").unwrap();
    let err = settings::set_skills_dir(&conn, Some(file.to_str().unwrap())).unwrap_err();
    assert_eq!(err.code(), "invalid_skills_dir");
    assert!(err.to_string().contains("not a folder"), "{err}");
}

#[test]
fn a_blank_skills_directory_is_refused() {
    let (_dir, _path, conn) = new_db();
    let err = settings::set_skills_dir(&conn, Some("  ")).unwrap_err();
    assert_eq!(err.code(), "invalid_skills_dir");
}

#[test]
fn clearing_the_skills_directory_brings_the_default_back() {
    let (dir, _path, conn) = new_db();
    settings::set_skills_dir(&conn, Some(dir.path().to_str().unwrap())).unwrap();
    assert_eq!(settings::set_skills_dir(&conn, None).unwrap(), None);
    assert_eq!(settings::skills_dir_setting(&conn).unwrap(), None);
}

#[test]
fn the_skills_directory_in_force_is_the_saved_one_unless_the_environment_overrides_it() {
    let (dir, _path, conn) = new_db();
    let chosen = std::fs::canonicalize(dir.path()).unwrap();
    settings::set_skills_dir(&conn, Some(chosen.to_str().unwrap())).unwrap();
    let in_force = settings::effective_skills_dir(&conn, dir.path()).unwrap();
    match std::env::var_os(skillcase_application::paths::SKILLS_DIR_ENV).filter(|v| !v.is_empty()) {
        Some(env) => assert_eq!(in_force, std::path::PathBuf::from(env)),
        None => assert_eq!(in_force, chosen),
    }
}

#[test]
fn a_port_below_1024_or_above_65535_is_refused() {
    let (_dir, _path, conn) = new_db();
    for port in [0, 80, 1023, 65_536, 70_000] {
        let err = settings::set_api_port(&conn, port, None).unwrap_err();
        assert!(err.to_string().contains("from 1024 to 65535"), "{port}: {err}");
        assert_eq!(code_and_field(err), ("invalid_api_port".into(), "api_port".into()));
    }
    assert_eq!(settings::api_port(&conn).unwrap(), 7878);
}

#[test]
fn a_port_in_use_is_refused_and_the_old_port_kept() {
    let (_dir, _path, conn) = new_db();
    let taken = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let port = taken.local_addr().unwrap().port();
    let err = settings::set_api_port(&conn, port.into(), None).unwrap_err();
    assert_eq!(err.to_string(), format!("port {port} on 127.0.0.1 is already in use; choose another one"));
    assert_eq!(code_and_field(err), ("api_port_in_use".into(), "api_port".into()));
    assert_eq!(settings::api_port(&conn).unwrap(), 7878);
}

#[test]
fn a_free_port_is_saved() {
    let (_dir, _path, conn) = new_db();
    let port = free_port();
    assert_eq!(settings::set_api_port(&conn, port.into(), None).unwrap(), port);
    assert_eq!(settings::load(&conn).unwrap().api_port, port);
}

#[test]
fn the_port_the_api_already_listens_on_is_accepted_without_a_bind_check() {
    let (_dir, _path, conn) = new_db();
    let ours = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let port = ours.local_addr().unwrap().port();
    assert_eq!(settings::set_api_port(&conn, port.into(), Some(port)).unwrap(), port);
}

#[test]
fn a_policy_within_limits_is_saved_with_extensions_normalised() {
    let (_dir, _path, conn) = new_db();
    let mut wanted = limits(10, 1000, 5000, &[" .PNG", "md", "png", "mp3"]);
    wanted.allow_executable = true;
    let saved = settings::set_policy(&conn, wanted).unwrap();
    assert_eq!(saved.limits.asset_extensions, vec!["png", "md", "mp3"]);
    assert!(saved.allow_executable);
    assert_eq!(settings::policy(&conn).unwrap(), saved);
}

#[test]
fn a_zero_file_limit_is_refused_naming_its_field() {
    let (_dir, _path, conn) = new_db();
    let err = settings::set_policy(&conn, limits(0, 1000, 5000, &["png"])).unwrap_err();
    assert_eq!(err.to_string(), "the import limit max_files must be from 1 to 10000");
    assert_eq!(code_and_field(err), ("invalid_limit".into(), "max_files".into()));
    assert_eq!(settings::policy(&conn).unwrap(), Policy::default());
}

#[test]
fn a_per_file_limit_above_the_total_is_refused() {
    let err = settings::checked_policy(limits(10, 6000, 5000, &[])).unwrap_err();
    assert_eq!(code_and_field(err), ("invalid_limit".into(), "max_file_bytes".into()));
}

#[test]
fn a_total_over_one_gibibyte_is_refused() {
    let err = settings::checked_policy(limits(10, 1000, (1 << 30) + 1, &[])).unwrap_err();
    assert_eq!(code_and_field(err), ("invalid_limit".into(), "max_total_bytes".into()));
}

#[test]
fn an_extension_with_punctuation_is_refused() {
    for bad in ["tar.gz", "", "p/ng", "exe!", "averyverylongext"] {
        let err = settings::checked_policy(limits(10, 1000, 5000, &["png", bad])).unwrap_err();
        assert_eq!(code_and_field(err), ("invalid_limit".into(), "asset_extensions".into()), "{bad:?}");
    }
}

#[test]
fn an_unknown_language_is_refused_and_a_known_one_saved() {
    let (_dir, _path, conn) = new_db();
    let err = settings::set_language(&conn, "fr").unwrap_err();
    assert_eq!(err.to_string(), "\"fr\" is not a language Skillcase speaks; choose system, en or pt-BR");
    assert_eq!(code_and_field(err), ("invalid_language".into(), "language".into()));
    assert_eq!(settings::set_language(&conn, "en").unwrap(), Language::En);
    assert_eq!(settings::language(&conn).unwrap(), Language::En);
}

#[test]
fn an_unknown_theme_is_refused_and_a_known_one_saved() {
    let (_dir, _path, conn) = new_db();
    let err = settings::set_theme(&conn, "blue").unwrap_err();
    assert_eq!(code_and_field(err), ("invalid_theme".into(), "theme".into()));
    assert_eq!(settings::set_theme(&conn, "light").unwrap(), Theme::Light);
    assert_eq!(settings::theme(&conn).unwrap(), Theme::Light);
}

#[test]
fn languages_and_themes_cross_the_wire_by_their_short_names() {
    assert_eq!(serde_json::to_string(&Language::PtBr).unwrap(), "\"pt-BR\"");
    assert_eq!(serde_json::to_string(&Theme::Dark).unwrap(), "\"dark\"");
}

#[test]
fn a_stored_value_that_does_not_parse_is_reported_as_corrupt() {
    let (_dir, _path, conn) = new_db();
    conn.put("api_port", "\"seven\"").unwrap();
    let err = settings::load(&conn).unwrap_err();
    assert_eq!(code_and_field(err), ("settings_corrupt".into(), "api_port".into()));
}

#[test]
fn the_view_shows_the_token_of_the_data_directory_and_a_curl_line_with_it() {
    let (dir, _path, conn) = new_db();
    let status = ApiStatus::Listening { url: "http://127.0.0.1:45678".into() };
    let shown = read_view(&conn, dir.path(), status).unwrap();
    let token = std::fs::read_to_string(dir.path().join("api-token")).unwrap();
    assert_eq!(shown.api.token, token.trim());
    assert_eq!(shown.api.url, "http://127.0.0.1:45678");
    assert_eq!(
        shown.api.curl,
        format!("curl -H \"Authorization: Bearer {}\" http://127.0.0.1:45678/v1/skills/index", token.trim())
    );
    assert_eq!(shown.endpoint, None);
}

#[test]
fn when_the_api_is_down_the_view_shows_the_saved_port() {
    let (dir, _path, conn) = new_db();
    let port = free_port();
    settings::set_api_port(&conn, port.into(), None).unwrap();
    let status = ApiStatus::Failed { error: ErrorBody::new("api_bind_failed", "in use") };
    let shown = read_view(&conn, dir.path(), status).unwrap();
    assert_eq!(shown.api.url, format!("http://127.0.0.1:{port}"));
}

#[test]
fn the_view_never_carries_the_endpoint_secret() {
    let (dir, _path, conn) = new_db();
    let input = EndpointInput {
        url: "http://127.0.0.1:9/hook".into(),
        secret: Some(SECRET.into()),
        timeout_secs: None,
        max_attempts: None,
        enabled: true,
    };
    conn.cases.set_endpoint(input).unwrap();
    let shown =
        read_view(&conn, dir.path(), ApiStatus::Listening { url: "http://127.0.0.1:1".into() }).unwrap();
    let json = serde_json::to_string(&shown).unwrap();
    assert!(shown.endpoint.unwrap().has_secret);
    assert!(!json.contains(SECRET), "{json}");
}

#[test]
fn an_endpoint_checked_for_a_test_is_not_stored_and_borrows_the_saved_secret() {
    let (_dir, _path, conn) = new_db();
    let first = EndpointInput {
        url: "http://127.0.0.1:9/hook".into(),
        secret: Some(SECRET.into()),
        timeout_secs: Some(5),
        max_attempts: None,
        enabled: true,
    };
    conn.cases.set_endpoint(first).unwrap();
    let trial = EndpointInput {
        url: "http://127.0.0.1:10/other".into(),
        secret: None,
        timeout_secs: Some(3),
        max_attempts: None,
        enabled: false,
    };
    let checked = conn.cases.checked_endpoint(&trial).unwrap();
    assert_eq!(
        (checked.url.as_str(), checked.secret.as_str(), checked.timeout_secs),
        ("http://127.0.0.1:10/other", SECRET, 3)
    );
    assert_eq!(conn.cases.endpoint().unwrap().unwrap().url, "http://127.0.0.1:9/hook");
}

#[test]
fn an_endpoint_url_without_a_scheme_is_refused_for_a_test_too() {
    let (_dir, _path, conn) = new_db();
    let input = EndpointInput {
        url: "example.com/hook".into(),
        secret: Some(SECRET.into()),
        timeout_secs: None,
        max_attempts: None,
        enabled: true,
    };
    assert_eq!(conn.cases.checked_endpoint(&input).unwrap_err().code(), "invalid_endpoint_url");
}
