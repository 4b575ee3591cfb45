//! `skillcase cases take|assign` and `list --view` run as the real binary: take gives the case
//! to the person running it, assign gives it to a name or to nobody, the views split the inbox,
//! a closed case refuses with `invalid_transition`, and assign needs `--to` or `--nobody`.

use crate::support;

use skillcase_application::domain::cases::model::{Case, HumanAction};
use skillcase_application::{App, AppOptions};
use support::inbox::{cases, data_dir};
use support::refund_case;
use tempfile::TempDir;

/// The agent opens one case per conversation; the first `closed` of them are then resolved.
fn open(work: &TempDir, conversations: &[&str], closed: usize) -> Vec<Case> {
    let options = AppOptions {
        skills_dir: Some(work.path().join("skills")),
        catalog_dir: None,
        background: false,
        ..AppOptions::new(data_dir(work))
    };
    App::block_on(async {
        let app = App::start(options).await.unwrap();
        let mut opened = Vec::new();
        for conversation in conversations {
            opened.push(app.open_case(refund_case(conversation)).await.unwrap().case);
        }
        for case in opened.iter().take(closed) {
            app.reply_to_case(case.id.clone(), HumanAction::Resolved, "Done.".into()).await.unwrap();
        }
        app.stop().await;
        opened
    })
}

fn text(output: &std::process::Output) -> (Option<i32>, String, String) {
    (
        output.status.code(),
        String::from_utf8(output.stdout.clone()).unwrap(),
        String::from_utf8(output.stderr.clone()).unwrap(),
    )
}

#[test]
fn take_assigns_the_case_to_the_person_running_it() {
    let work = TempDir::new().unwrap();
    open(&work, &["conv-1"], 0);
    assert_eq!(
        text(&cases(&work, &["take", "#1001"])),
        (Some(0), "#1001 assigned to ana\n".into(), String::new())
    );
    let (_, shown, _) = text(&cases(&work, &["show", "1001"]));
    assert!(shown.contains("\nassignee: ana\n"), "{shown}");
}

#[test]
fn assign_gives_the_case_to_a_name_and_nobody_unassigns_it() {
    let work = TempDir::new().unwrap();
    open(&work, &["conv-1"], 0);
    assert_eq!(
        text(&cases(&work, &["assign", "1001", "--to", "Bruno Lima"])).1,
        "#1001 assigned to Bruno Lima\n"
    );
    assert_eq!(text(&cases(&work, &["assign", "1001", "--nobody"])).1, "#1001 unassigned\n");
}

#[test]
fn list_views_split_the_inbox_by_assignee() {
    let work = TempDir::new().unwrap();
    open(&work, &["conv-1", "conv-2", "conv-3"], 0);
    cases(&work, &["take", "1001"]);
    cases(&work, &["assign", "1002", "--to", "Bruno"]);
    let numbers = |view: &str| -> Vec<i64> {
        let output = cases(&work, &["list", "--view", view, "--format", "json"]);
        let page: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        page["items"].as_array().unwrap().iter().map(|i| i["case"]["number"].as_i64().unwrap()).collect()
    };
    assert_eq!(numbers("mine"), vec![1001]);
    assert_eq!(numbers("unassigned"), vec![1003]);
    assert_eq!(numbers("all").len(), 3);
}

#[test]
fn a_closed_case_refuses_assignment_with_invalid_transition() {
    let work = TempDir::new().unwrap();
    open(&work, &["conv-1"], 1);
    let (code, out, err) = text(&cases(&work, &["take", "1001"]));
    assert_eq!((code, out.as_str()), (Some(1), ""));
    assert!(err.starts_with("invalid_transition: "), "{err}");
}

#[test]
fn assign_without_to_or_nobody_is_bad_usage() {
    let work = TempDir::new().unwrap();
    open(&work, &["conv-1"], 0);
    assert_eq!(cases(&work, &["assign", "1001"]).status.code(), Some(2));
}
