//! The team inbox from the command line, on a real PostgreSQL: `skillcase migrate --to` copies a
//! desktop's inbox into an empty team database and verifies it, and `cases … --database` works
//! the same inbox from any data directory (SQLite and PostgreSQL alike).

use crate::support;

use assert_cmd::Command;
use serde_json::Value;
use skillcase_application::domain::cases::model::HumanAction;
use skillcase_application::{App, AppOptions};
use skillcase_testkit::postgres::Cluster;
use support::inbox::data_dir;
use support::refund_case;
use tempfile::TempDir;

/// A desktop inbox with three cases, the first resolved.
fn desktop_inbox(work: &TempDir) {
    let options = AppOptions {
        skills_dir: Some(work.path().join("skills")),
        catalog_dir: None,
        background: false,
        ..AppOptions::new(data_dir(work))
    };
    App::block_on(async {
        let app = App::start(options).await.unwrap();
        let mut ids = Vec::new();
        for conversation in ["conv-a", "conv-b", "conv-c"] {
            ids.push(app.open_case(refund_case(conversation)).await.unwrap().case.id);
        }
        app.reply_to_case(ids[0].clone(), HumanAction::Resolved, "Refund issued.".into()).await.unwrap();
        app.stop().await;
    });
}

/// The binary with `ARGS` as `ana`, on the test's data directory only.
fn skillcase(work: &TempDir, args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::cargo_bin("skillcase")
        .unwrap()
        .env("SKILLCASE_DATA_DIR", data_dir(work))
        .env("HOME", work.path().join("home"))
        .env("USER", "ana")
        .env_remove("SKILLCASE_DATABASE_URL")
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn rows(report: &Value, table: &str) -> u64 {
    let tables = report["tables"].as_array().unwrap();
    tables.iter().find(|t| t["table"] == table).unwrap()["rows"].as_u64().unwrap()
}

#[test]
fn migrate_copies_the_inbox_and_reports_each_tables_rows_and_checksum() {
    let work = TempDir::new().unwrap();
    desktop_inbox(&work);
    let team = Cluster::shared().fresh_database();
    let (code, out, err) = skillcase(&work, &["migrate", "--to", &team, "--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows(&report, "cases"), 3);
    assert_eq!(rows(&report, "deliveries"), 1);
    let tables = report["tables"].as_array().unwrap();
    assert!(tables.iter().all(|t| t["sha256"].as_str().unwrap().len() == 64));
}

#[test]
fn after_migrate_any_desktop_lists_the_same_cases_with_database() {
    let work = TempDir::new().unwrap();
    desktop_inbox(&work);
    let team = Cluster::shared().fresh_database();
    assert_eq!(skillcase(&work, &["migrate", "--to", &team]).0, Some(0));
    let elsewhere = TempDir::new().unwrap();
    let (code, out, err) = skillcase(&elsewhere, &["cases", "list", "--database", &team, "--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let page: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(page["counts"]["waiting_on_you"], 2);
    assert_eq!(page["counts"]["closed"], 1);
}

#[test]
fn migrating_into_a_team_database_that_has_cases_is_refused() {
    let work = TempDir::new().unwrap();
    desktop_inbox(&work);
    let team = Cluster::shared().fresh_database();
    assert_eq!(skillcase(&work, &["migrate", "--to", &team]).0, Some(0));
    let (code, _, err) = skillcase(&work, &["migrate", "--to", &team]);
    assert_eq!(code, Some(1));
    assert!(err.contains("team_db_not_empty"), "{err}");
}

#[test]
fn take_on_the_team_database_is_seen_by_another_desktop() {
    let work = TempDir::new().unwrap();
    desktop_inbox(&work);
    let team = Cluster::shared().fresh_database();
    assert_eq!(skillcase(&work, &["migrate", "--to", &team]).0, Some(0));
    let (code, _, err) = skillcase(&work, &["cases", "take", "1002", "--database", &team]);
    assert_eq!(code, Some(0), "{err}");
    let bruno = TempDir::new().unwrap();
    let (_, out, _) = skillcase(&bruno, &["cases", "show", "1002", "--database", &team, "--format", "json"]);
    let shown: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(shown["case"]["assignee"], "ana");
}

#[test]
fn a_team_database_that_cannot_be_reached_is_refused_with_its_code_and_no_password() {
    let work = TempDir::new().unwrap();
    let (code, _, err) =
        skillcase(&work, &["cases", "list", "--database", "postgres://ana:s3cret@127.0.0.1:1/support"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("team_db_unreachable"), "{err}");
    assert!(!err.contains("s3cret"), "{err}");
}

/// A new team database owned by a role of its own that may create roles; its owner's URL.
fn owned_database() -> (String, String) {
    let cluster = Cluster::shared();
    let raw = cluster.fresh_database();
    let database = raw.rsplit('/').next().unwrap().to_string();
    cluster.psql(
        "postgres",
        &format!("CREATE ROLE {database}_owner LOGIN CREATEROLE; ALTER DATABASE {database} OWNER TO {database}_owner"),
    );
    (raw.replacen("postgres://skillcase@", &format!("postgres://{database}_owner@"), 1), database)
}

#[test]
fn the_owner_sets_up_roles_and_people_and_a_member_verifies_the_history_but_adds_nobody() {
    let work = TempDir::new().unwrap();
    let (owner, database) = owned_database();
    assert!(owner.contains("_owner@"), "{owner}");

    let (code, out, err) = skillcase(&work, &["--database", &owner, "team", "init"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(&format!("{database}_member, {database}_delivery, {database}_admin")), "{out}");

    let login = format!("{database}_ana");
    let (code, out, err) =
        skillcase(&work, &["--database", &owner, "team", "add-person", "Ana Lima", "--login", &login]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with(&format!("added Ana Lima ({login}) as member")), "{out}");
    let ana = out.lines().last().unwrap().to_string();
    assert!(ana.starts_with(&format!("postgres://{login}:")), "{ana}");

    let (code, out, err) = skillcase(&work, &["--database", &ana, "team", "verify"]);
    assert_eq!((code, out.trim()), (Some(0), "0 cases, 0 events: history intact"), "{err}");
    let (code, _, err) =
        skillcase(&work, &["--database", &ana, "team", "add-person", "Eve", "--login", "eve"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("refused (team_not_owner)"), "{err}");
}

#[test]
fn a_members_desktop_knows_who_she_is_and_may_not_change_the_teams_calendar() {
    let work = TempDir::new().unwrap();
    let (owner, database) = owned_database();
    assert_eq!(skillcase(&work, &["--database", &owner, "team", "init"]).0, Some(0));
    let login = format!("{database}_ana");
    let (_, out, _) =
        skillcase(&work, &["--database", &owner, "team", "add-person", "Ana Lima", "--login", &login]);
    let ana = out.lines().last().unwrap().to_string();

    let options = AppOptions {
        database: Some(ana),
        background: false,
        catalog_dir: None,
        skills_dir: Some(work.path().join("skills")),
        ..AppOptions::new(data_dir(&work))
    };
    App::block_on(async {
        let app = App::start(options).await.unwrap();
        let person = app.team_inbox().unwrap().person.unwrap();
        assert_eq!(
            (person.name.as_str(), person.role.as_str(), app.person()),
            ("Ana Lima", "member", "Ana Lima")
        );
        let calendar = skillcase_application::domain::guard::due::CalendarSettings::default();
        let refused = app.set_calendar(calendar).await.unwrap_err();
        assert_eq!(refused.code, "team_admin_only");
        app.stop().await;
    });
}
