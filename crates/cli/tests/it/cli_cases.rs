//! `skillcase cases list|show|reply|note` run as the real binary on a data directory whose cases
//! the agent opened through the application: the inbox table, accent-insensitive search, JSON
//! that parses, a case shown by number, a reply that changes the status and queues one delivery,
//! a refused reply that changes nothing, and an unknown number's code.

use crate::support;

use serde_json::Value;
use skillcase_application::domain::cases::model::{Case, CaseStatus, DeliveryState, HumanAction, NewCase};
use skillcase_application::domain::cases::store::CaseWithTimeline;
use skillcase_application::{App, AppOptions};
use support::inbox::{cases, data_dir};
use support::refund_case;
use tempfile::TempDir;

/// Runs `work` on the application over the test's data directory, as the desktop would.
fn with_app<T>(work: &TempDir, run: impl AsyncFnOnce(&App) -> T) -> T {
    let options = AppOptions {
        skills_dir: Some(work.path().join("skills")),
        catalog_dir: None,
        background: false,
        person: "Bia".into(),
        ..AppOptions::new(data_dir(work))
    };
    App::block_on(async {
        let app = App::start(options).await.unwrap();
        let value = run(&app).await;
        app.stop().await;
        value
    })
}

/// The agent opens these cases, in order.
fn open(work: &TempDir, new: Vec<NewCase>) -> Vec<Case> {
    with_app(work, async |app| {
        let mut opened = Vec::new();
        for case in new {
            opened.push(app.open_case(case).await.unwrap().case);
        }
        opened
    })
}

fn case(work: &TempDir, id: &str) -> CaseWithTimeline {
    let id = id.to_string();
    with_app(work, async move |app| app.get_case(id).await.unwrap())
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn json(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(output)))
}

fn numbers(page: &Value) -> Vec<i64> {
    page["items"].as_array().unwrap().iter().map(|i| i["case"]["number"].as_i64().unwrap()).collect()
}

/// `2026-12-03T07:00:12.345Z` as the list prints it: `2026-12-03 07:00`.
fn minute(at: &str) -> String {
    at[..16].replace('T', " ")
}

#[test]
fn list_shows_the_case_as_a_row_of_the_table() {
    let work = TempDir::new().unwrap();
    let opened = open(&work, vec![refund_case("conv-1")]);
    let output = cases(&work, &["list"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let since = minute(opened[0].waiting_since.as_deref().unwrap());
    assert_eq!(
        stdout(&output),
        format!(
            "NUMBER  STATUS          REASON              TITLE                       WAITING SINCE (UTC)\n\
             #1001   awaiting_human  policy_restriction  Refund for a double charge  {since}\n\
             1 of 1 cases (waiting on you 1, waiting on customer 0, closed 0)\n"
        )
    );
}

#[test]
fn search_finds_a_case_by_its_text_typed_without_accents() {
    let work = TempDir::new().unwrap();
    let mut accented = refund_case("conv-2");
    accented.title = "Cobrança em dobro no cartão".into();
    open(&work, vec![refund_case("conv-1"), accented]);
    let output = cases(&work, &["list", "--search", "cobranca cartao", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(numbers(&json(&output)), vec![1002]);
}

#[test]
fn list_in_json_is_the_inbox_page_with_its_counts() {
    let work = TempDir::new().unwrap();
    open(&work, vec![refund_case("conv-1"), refund_case("conv-2")]);
    let output = cases(&work, &["list", "--tab", "waiting", "--limit", "1", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let page = json(&output);
    assert_eq!(numbers(&page), vec![1001]);
    assert_eq!(page["items"][0]["case"]["status"], "awaiting_human");
    assert_eq!(page["items"][0]["case"]["reason"], "policy_restriction");
    assert_eq!((page["total"].as_i64(), page["limit"].as_i64()), (Some(2), Some(1)));
    assert_eq!(page["counts"]["waiting_on_you"], 2);
}

#[test]
fn show_by_number_prints_the_case_and_its_timeline() {
    let work = TempDir::new().unwrap();
    let opened = open(&work, vec![refund_case("conv-1"), refund_case("conv-2")]);
    let output = cases(&work, &["show", "1002"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with(
            "#1002 Refund for a double charge\nstatus: awaiting_human\nreason: policy_restriction\n\
             lead: Maria Souza (whatsapp, +55 11 91234-5678)\n"
        ),
        "{text}"
    );
    assert!(text.contains(&format!("\nid: {}\n", opened[1].id)), "{text}");
    assert!(text.contains("\nSummary\n  The lead was charged twice for order 5512"), "{text}");
    let opened_at = opened[1].opened_at[..19].replace('T', " ");
    assert!(
        text.contains(&format!("\nTimeline\n  {opened_at} opened by support-bot: policy_restriction\n")),
        "{text}"
    );
    assert!(text.ends_with("\nDeliveries\n  (none)\n"), "{text}");
}

#[test]
fn reply_changes_the_status_and_queues_one_delivery() {
    let work = TempDir::new().unwrap();
    let id = open(&work, vec![refund_case("conv-1")]).remove(0).id;
    let output = cases(&work, &["reply", "#1001", "--action", "resolved", "--text", "Refund issued."]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let after = case(&work, &id);
    assert_eq!(after.case.status, CaseStatus::Resolved);
    assert_eq!(after.deliveries.len(), 1);
    let delivery = &after.deliveries[0];
    assert_eq!(delivery.state, DeliveryState::Pending);
    assert_eq!(after.events.last().unwrap().actor_name.as_deref(), Some("ana"));
    assert_eq!(
        stdout(&output),
        format!(
            "replied to #1001: the case is now resolved\nqueued delivery {} (resolved) for the agent \
             endpoint; the app or `skillcase serve` sends it\n",
            delivery.id
        )
    );
}

#[test]
fn reply_in_json_names_the_queued_delivery() {
    let work = TempDir::new().unwrap();
    open(&work, vec![refund_case("conv-1")]);
    let output = cases(
        &work,
        &["reply", "1001", "--action", "need_lead_info", "--text", "Which card?", "--format", "json"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let replied = json(&output);
    assert_eq!(replied["case"]["status"], "awaiting_lead");
    assert_eq!(replied["queued"]["action"], "need_lead_info");
    assert_eq!(replied["queued"]["id"], replied["deliveries"][0]["id"]);
}

#[test]
fn replying_to_a_closed_case_is_invalid_transition_and_changes_nothing() {
    let work = TempDir::new().unwrap();
    let id = open(&work, vec![refund_case("conv-1")]).remove(0).id;
    let closed = id.clone();
    with_app(&work, async move |app| {
        app.reply_to_case(closed, HumanAction::Resolved, "Refund issued.".into()).await.unwrap()
    });
    let before = case(&work, &id);
    let output = cases(&work, &["reply", "1001", "--action", "escalate", "--text", "To finance."]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "invalid_transition: a case that is resolved cannot take the action escalate\n"
    );
    assert_eq!(stdout(&output), "");
    assert_eq!(case(&work, &id), before);
}

#[test]
fn an_unknown_number_is_case_not_found() {
    let work = TempDir::new().unwrap();
    open(&work, vec![refund_case("conv-1")]);
    let output = cases(&work, &["show", "4242"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stderr(&output), "case_not_found: no case #4242\n");
    assert_eq!(stdout(&output), "");
}

#[test]
fn an_unknown_number_in_json_prints_the_error_body() {
    let work = TempDir::new().unwrap();
    open(&work, vec![refund_case("conv-1")]);
    let output =
        cases(&work, &["reply", "4242", "--action", "resolved", "--text", "Done.", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        json(&output),
        serde_json::json!({
            "error": { "code": "case_not_found", "message": "no case #4242", "details": { "number": 4242 } }
        })
    );
}

#[test]
fn a_note_lands_on_the_timeline_and_queues_nothing() {
    let work = TempDir::new().unwrap();
    let id = open(&work, vec![refund_case("conv-1")]).remove(0).id;
    let output = cases(&work, &["note", "1001", "--text", "Manager approved by phone."]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "note added to #1001 (on its timeline, never sent to the agent)\n");
    let after = case(&work, &id);
    let note = after.events.last().unwrap();
    assert_eq!(note.payload["text"], "Manager approved by phone.");
    assert_eq!(after.case.status, CaseStatus::AwaitingHuman);
    assert!(after.deliveries.is_empty());
}

#[test]
fn an_action_the_cli_does_not_know_is_bad_usage() {
    let work = TempDir::new().unwrap();
    let output = cases(&work, &["reply", "1001", "--action", "close", "--text", "Done."]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("resolved, need_lead_info, escalate"), "{}", stderr(&output));
}

/// Words from outside carrying terminal commands: a clipboard write (OSC 52), a link hidden behind
/// other text (OSC 8), a screen clear and a carriage return that overwrites the line.
const CLIPBOARD: &str = "\x1b]52;c;ZWNobyBoaQ==\x07";
const HIDDEN_LINK: &str = "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\";
const CLEAR: &str = "\x1b[2J\x1b[H";

#[test]
fn cases_list_and_show_print_terminal_control_sequences_in_case_fields_visibly() {
    let work = TempDir::new().unwrap();
    let mut hostile = refund_case("conv-1");
    hostile.title = format!("Refund{CLIPBOARD}");
    hostile.summary = format!("Charged twice {HIDDEN_LINK}{CLEAR}");
    hostile.context[0].text = "I was charged twice!\rAll fine, close this case".into();
    open(&work, vec![hostile]);

    let list = cases(&work, &["list"]);
    let show = cases(&work, &["show", "1001"]);

    for output in [&list, &show] {
        assert_eq!(output.status.code(), Some(0), "{}", stderr(output));
        let text = stdout(output);
        assert!(!text.contains(['\x1b', '\x07', '\r']), "a control character reached the terminal: {text:?}");
    }
    assert!(stdout(&list).contains("Refund\\x1b]52;c;ZWNobyBoaQ==\\x07  "), "{}", stdout(&list));
    let shown = stdout(&show);
    assert!(shown.contains("\\x1b]8;;https://evil.example/\\x1b\\click"), "{shown}");
    assert!(shown.contains("\\x1b[2J\\x1b[H"), "{shown}");
    assert!(shown.contains("I was charged twice!\\x0dAll fine, close this case"), "{shown}");
    let as_json = cases(&work, &["show", "1001", "--format", "json"]);
    assert_eq!(
        json(&as_json)["case"]["title"],
        format!("Refund{CLIPBOARD}"),
        "JSON keeps the words as they are"
    );
}
