//! The CLI honours the workspace settings saved by the app: `serve` listens on the saved port
//! and serves the saved skills directory unless told otherwise, and `info` reports that folder.

use std::io::{BufRead, BufReader};
use std::net::{Ipv4Addr, TcpListener};
use std::process::{Command, Stdio};

use skillcase_application::settings;
use skillcase_store::settings::SqliteSettings;
use skillcase_store::{db, Database};

/// The settings of the data directory `data_dir`, as the app saves them.
fn saved_settings(data_dir: &std::path::Path) -> SqliteSettings {
    SqliteSettings::new(Database::open(&data_dir.join(db::DATABASE_FILE)).unwrap())
}

fn skillcase() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skillcase"));
    command.env_remove("SKILLCASE_SKILLS_DIR").env_remove("SKILLCASE_API_PORT");
    command
}

#[test]
fn serve_without_a_port_listens_on_the_port_saved_in_settings() {
    let data_dir = tempfile::tempdir().unwrap();
    let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap().local_addr().unwrap().port();
    let conn = saved_settings(data_dir.path());
    settings::set_api_port(&conn, port.into(), None).unwrap();
    drop(conn);
    let mut child = skillcase()
        .arg("serve")
        .env("SKILLCASE_DATA_DIR", data_dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(line.trim(), format!("listening on http://127.0.0.1:{port}"));
}

#[test]
fn info_reports_the_skills_directory_saved_in_settings() {
    let data_dir = tempfile::tempdir().unwrap();
    let skills = tempfile::tempdir().unwrap();
    let conn = saved_settings(data_dir.path());
    let saved = settings::set_skills_dir(&conn, Some(skills.path().to_str().unwrap())).unwrap().unwrap();
    drop(conn);
    let out = skillcase().arg("info").env("SKILLCASE_DATA_DIR", data_dir.path()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let info: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(info["skills_dir"], saved.display().to_string());
}
