//! Reading cases: the inbox tabs, their order and counts, search and paging; the reply payload
//! of SPEC B3 byte for byte; the endpoint settings and the outbox banner status.

mod support;

use skillcase_cases::endpoint::{endpoint_view, get_endpoint, set_endpoint, EndpointInput};
use skillcase_cases::model::{Actor, CaseStatus, HumanAction};
use skillcase_cases::outbox::{
    outbox_status, record_attempt, Attempt, Backoff, EndpointHealth, ReplyPayload,
};
use skillcase_cases::store::{get_delivery, list_cases, CaseFilter, CaseTab};
use skillcase_cases::transition::{cancel, open_case, reply};
use skillcase_common::error::Coded;
use support::{new_db, refund_case};

const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

fn numbers(page: &skillcase_cases::store::CasePage) -> Vec<i64> {
    page.items.iter().map(|i| i.case.number).collect()
}

fn tab(tab: CaseTab) -> CaseFilter {
    CaseFilter { tab: Some(tab), ..CaseFilter::default() }
}

#[test]
fn tabs_split_open_and_closed_cases_with_counts_and_longest_waiting_first() {
    let (_dir, _path, conn) = new_db();
    let ids: Vec<String> =
        (0..5).map(|n| open_case(&conn, refund_case(&format!("conv-{n}"))).unwrap().case.id).collect();
    reply(&conn, &ids[0], HumanAction::NeedLeadInfo, "Ask for the order number.", "Ana").unwrap();
    reply(&conn, &ids[1], HumanAction::Resolved, "Done.", "Ana").unwrap();
    cancel(&conn, &ids[2], Actor::Agent, None, None).unwrap();

    let waiting = list_cases(&conn, &tab(CaseTab::WaitingOnYou)).unwrap();
    assert_eq!(numbers(&waiting), vec![1004, 1005]);
    assert_eq!(
        (waiting.counts.waiting_on_you, waiting.counts.waiting_on_customer, waiting.counts.closed),
        (2, 1, 2)
    );
    assert_eq!(numbers(&list_cases(&conn, &tab(CaseTab::WaitingOnCustomer)).unwrap()), vec![1001]);
    assert_eq!(numbers(&list_cases(&conn, &tab(CaseTab::Closed)).unwrap()), vec![1003, 1002]);
    let all = list_cases(&conn, &CaseFilter::default()).unwrap();
    assert_eq!(all.total, 5);
}

#[test]
fn a_case_back_from_the_lead_queues_behind_cases_that_waited_longer() {
    let (_dir, _path, conn) = new_db();
    let first = open_case(&conn, refund_case("a")).unwrap().case.id;
    open_case(&conn, refund_case("b")).unwrap();
    reply(&conn, &first, HumanAction::NeedLeadInfo, "Ask which card.", "Ana").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(5));
    skillcase_cases::transition::provide_update(&conn, &first, "Visa 4242").unwrap();
    assert_eq!(numbers(&list_cases(&conn, &tab(CaseTab::WaitingOnYou)).unwrap()), vec![1002, 1001]);
}

#[test]
fn search_finds_by_number_title_lead_and_conversation_and_wildcards_are_only_text() {
    let (_dir, _path, conn) = new_db();
    open_case(&conn, refund_case("conv-alpha")).unwrap();
    let mut other = refund_case("conv-beta");
    other.title = "Wrong size shipped (100%_cotton)".into();
    other.lead.name = Some("João Lima".into());
    open_case(&conn, other).unwrap();
    let search = |text: &str| {
        numbers(
            &list_cases(&conn, &CaseFilter { search: Some(text.into()), ..CaseFilter::default() }).unwrap(),
        )
    };
    assert_eq!(search("#1002"), vec![1002]);
    assert_eq!(search("1001"), vec![1001]);
    assert_eq!(search("double charge"), vec![1001]);
    assert_eq!(search("joão"), vec![1002]);
    assert_eq!(search("conv-beta"), vec![1002]);
    assert_eq!(search("100%_"), vec![1002]);
    assert_eq!(search("%"), Vec::<i64>::new(), "punctuation alone is no word to find");
    assert_eq!(search("_"), Vec::<i64>::new());
}

#[test]
fn status_filter_and_paging_narrow_the_page_but_not_the_counts() {
    let (_dir, _path, conn) = new_db();
    for n in 0..7 {
        open_case(&conn, refund_case(&format!("conv-{n}"))).unwrap();
    }
    let filter =
        CaseFilter { status: Some(CaseStatus::AwaitingHuman), offset: 2, limit: 3, ..CaseFilter::default() };
    let page = list_cases(&conn, &filter).unwrap();
    assert_eq!(numbers(&page), vec![1003, 1004, 1005]);
    assert_eq!((page.total, page.offset, page.limit, page.counts.waiting_on_you), (7, 2, 3, 7));
    let resolved = CaseFilter { status: Some(CaseStatus::Resolved), ..CaseFilter::default() };
    assert_eq!(list_cases(&conn, &resolved).unwrap().total, 0);
}

#[test]
fn inbox_rows_carry_the_latest_delivery_state() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    open_case(&conn, refund_case("conv-2")).unwrap();
    reply(&conn, &id, HumanAction::Resolved, "Done.", "Ana").unwrap();
    let page = list_cases(&conn, &CaseFilter::default()).unwrap();
    let states: Vec<_> = page.items.iter().map(|i| (i.case.number, i.latest_delivery)).collect();
    assert!(states.contains(&(1001, Some(skillcase_cases::model::DeliveryState::Pending))));
    assert!(states.contains(&(1002, None)));
}

#[test]
fn the_reply_payload_is_exactly_the_spec_shape() {
    let (_dir, _path, conn) = new_db();
    let mut case = open_case(&conn, refund_case("conv-1")).unwrap().case;
    case.id = "5b0e2c1e-0c5a-4a5e-9a43-0b7c1e9d2f10".into();
    case.status = CaseStatus::AwaitingLead;
    let payload = ReplyPayload::new(
        "d6f1a0b2-3c4d-4e5f-8a9b-0c1d2e3f4a5b",
        "2026-11-30T12:00:00.000Z",
        &case,
        HumanAction::NeedLeadInfo,
        "Ask for the last 4 digits of the card.",
        vec![],
    );
    assert_eq!(
        serde_json::to_string(&payload).unwrap(),
        concat!(
            r#"{"type":"case.replied","id":"d6f1a0b2-3c4d-4e5f-8a9b-0c1d2e3f4a5b","created_at":"2026-11-30T12:00:00.000Z","#,
            r#""case":{"id":"5b0e2c1e-0c5a-4a5e-9a43-0b7c1e9d2f10","number":1001,"conversation_id":"conv-1","#,
            r#""title":"Refund for a double charge","#,
            r#""summary":"The lead was charged twice for order 5512 and wants one charge refunded.","#,
            r#""status":"awaiting_lead"},"action":"need_lead_info","text":"Ask for the last 4 digits of the card.","#,
            r#""instruction":"Ask the lead for exactly the information described in `text`, then call provide-update "#,
            r#"on this case with the lead's answer.","promises":[]}"#
        )
    );
}

#[test]
fn each_action_has_its_own_fixed_instruction() {
    use skillcase_cases::outbox::instruction;
    assert_eq!(
        instruction(HumanAction::Resolved),
        "Relay the person's conclusion in `text` to the lead naturally, in your own words, and close the topic."
    );
    assert_eq!(
        instruction(HumanAction::Escalate),
        "Stop replying in this conversation: a person is taking it over from here."
    );
}

#[test]
fn the_stored_delivery_body_is_the_payload_of_the_case_after_the_reply() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    let (case, delivery) = reply(&conn, &id, HumanAction::Resolved, "Refund issued.", "Ana").unwrap();
    let body: String =
        conn.query_row("SELECT body FROM deliveries WHERE id = ?1", [&delivery.id], |r| r.get(0)).unwrap();
    let expected = ReplyPayload::new(
        &delivery.id,
        &delivery.created_at,
        &case,
        HumanAction::Resolved,
        "Refund issued.",
        vec![],
    );
    assert_eq!(body, serde_json::to_string(&expected).unwrap());
    assert!(body.contains(r#""status":"resolved""#));
}

#[test]
fn endpoint_urls_must_be_absolute_http_or_https() {
    let (_dir, _path, conn) = new_db();
    for url in ["ftp://agent.local/hook", "/hooks/skillcase", "not a url", "http://", "file:///tmp/x"] {
        let input = EndpointInput {
            url: url.into(),
            secret: Some(SECRET.into()),
            timeout_secs: None,
            max_attempts: None,
            enabled: true,
        };
        let err = set_endpoint(&conn, input).unwrap_err();
        assert_eq!(err.code(), "invalid_endpoint_url", "{url}");
    }
    assert_eq!(get_endpoint(&conn).unwrap(), None);
}

#[test]
fn endpoint_settings_are_validated_stored_and_shown_without_the_secret() {
    let (_dir, _path, conn) = new_db();
    let mut input = EndpointInput {
        url: "http://127.0.0.1:9000/hooks".into(),
        secret: None,
        timeout_secs: None,
        max_attempts: None,
        enabled: true,
    };
    let err = set_endpoint(&conn, input.clone()).unwrap_err();
    assert_eq!(
        (err.code(), err.details().unwrap()["field"].as_str()),
        ("invalid_endpoint_setting", Some("secret"))
    );
    input.secret = Some(SECRET.into());
    input.timeout_secs = Some(0);
    assert_eq!(
        set_endpoint(&conn, input.clone()).unwrap_err().to_string(),
        "the agent endpoint timeout_secs is not valid: 0 is outside 1..=120"
    );
    input.timeout_secs = None;
    let view = set_endpoint(&conn, input.clone()).unwrap();
    assert_eq!(
        (view.url.as_str(), view.has_secret, view.timeout_secs, view.max_attempts),
        ("http://127.0.0.1:9000/hooks", true, 10, 15)
    );
    input.secret = None;
    input.max_attempts = Some(3);
    set_endpoint(&conn, input).unwrap();
    let stored = get_endpoint(&conn).unwrap().unwrap();
    assert_eq!((stored.secret.as_str(), stored.max_attempts), (SECRET, 3));
    assert!(!serde_json::to_string(&endpoint_view(&conn).unwrap()).unwrap().contains("MfKQ9"));
}

#[test]
fn the_outbox_status_tells_the_banner_why_replies_wait() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    let (_, delivery) = reply(&conn, &id, HumanAction::Resolved, "Done.", "Ana").unwrap();
    let status = outbox_status(&conn).unwrap();
    assert_eq!((status.health, status.pending, status.stuck), (EndpointHealth::NotConfigured, 1, 0));
    assert_eq!(status.oldest_pending_since.as_deref(), Some(delivery.created_at.as_str()));

    let mut input = EndpointInput {
        url: "http://127.0.0.1:9/x".into(),
        secret: Some(SECRET.into()),
        timeout_secs: None,
        max_attempts: Some(2),
        enabled: false,
    };
    set_endpoint(&conn, input.clone()).unwrap();
    assert_eq!(outbox_status(&conn).unwrap().health, EndpointHealth::Disabled);
    input.enabled = true;
    input.secret = None;
    set_endpoint(&conn, input).unwrap();
    assert_eq!(outbox_status(&conn).unwrap().health, EndpointHealth::Ok);

    let refused =
        Attempt::Retryable { status: None, error: "cannot connect: refused".into(), retry_after: None };
    record_attempt(&conn, &delivery.id, &refused, 2, &Backoff::default()).unwrap();
    let status = outbox_status(&conn).unwrap();
    assert_eq!(
        (status.health, status.last_error.as_deref()),
        (EndpointHealth::Unreachable, Some("cannot connect: refused"))
    );
    record_attempt(&conn, &delivery.id, &refused, 2, &Backoff::default()).unwrap();
    assert_eq!(get_delivery(&conn, &delivery.id).unwrap().state, skillcase_cases::model::DeliveryState::Dead);
    assert_eq!((outbox_status(&conn).unwrap().pending, outbox_status(&conn).unwrap().stuck), (0, 1));
}

#[test]
fn backoff_doubles_from_the_base_up_to_the_cap_with_jitter_below_the_ceiling() {
    use std::time::Duration;
    let backoff = Backoff::default();
    let ceilings: Vec<u64> = (1..=11).map(|n| backoff.ceiling(n).as_secs()).collect();
    assert_eq!(ceilings, vec![1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300]);
    assert_eq!(backoff.ceiling(64), Duration::from_secs(300));
    for _ in 0..100 {
        assert!(backoff.delay(3, None) <= Duration::from_secs(4));
        assert!(backoff.delay(1, Some(Duration::from_secs(30))) == Duration::from_secs(30));
    }
}
