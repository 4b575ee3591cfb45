//! Reading one case: with its timeline, deliveries and promises oldest first, by id or by the
//! number people know it by; and the reply message of SPEC B3 byte for byte, as stored for the
//! agent.

use skillcase_cases::model::{CaseStatus, EventKind, HumanAction};
use skillcase_cases::outbox::{instruction, ReplyPayload};
use skillcase_cases::promises::NewPromise;
use skillcase_cases::CasesRepository;
use skillcase_common::error::Coded;

use crate::support::refund_case;

on_both! {
    fn a_case_comes_with_its_timeline_deliveries_and_promises_oldest_first(db) {
        let id = db.open("conv-1");
        let promise = NewPromise {
            quote: "Te ligo amanhã.".into(),
            actor: None,
            action: None,
            due_text: None,
            due_at: None,
            turn_id: "t1".into(),
            spans: vec![],
        };
        db.record_promise(&id, &promise).unwrap();
        let (_, delivery) = db.reply(&id, HumanAction::Resolved, "Refunded.", "Ana").unwrap();

        let found = db.get_case(&id).unwrap();
        assert_eq!((found.case.number, found.case.status), (1001, CaseStatus::Resolved));
        let kinds: Vec<EventKind> = found.events.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            [EventKind::Opened, EventKind::PromiseMade, EventKind::HumanReplied, EventKind::Resolved]
        );
        assert_eq!(found.deliveries, vec![delivery]);
        assert_eq!(found.promises.len(), 1);
        assert_eq!((found.promises[0].quote.as_str(), found.promises[0].kept), ("Te ligo amanhã.", true));
    }
}

on_both! {
    fn a_case_is_found_by_the_number_people_know_it_by(db) {
        db.open("conv-1");
        let second = db.open("conv-2");
        let case = db.find_case_by_number(1002).unwrap();
        assert_eq!((case.id, case.conversation_id.as_str()), (second, "conv-2"));
    }
}

on_both! {
    fn a_case_that_does_not_exist_is_case_not_found_by_id_or_by_number(db) {
        assert_eq!(db.get_case("no-such-case").unwrap_err().code(), "case_not_found");
        let err = db.find_case_by_number(4242).unwrap_err();
        assert_eq!((err.code(), err.to_string().as_str()), ("case_not_found", "no case #4242"));
    }
}

on_both! {
    fn the_stored_delivery_body_is_the_payload_of_the_case_after_the_reply(db) {
        let id = db.open("conv-1");
        let (after, delivery) = db.reply(&id, HumanAction::Resolved, "Refund issued.", "Ana").unwrap();
        let body = db.text(&format!("SELECT body FROM deliveries WHERE id = '{}'", delivery.id)).unwrap();
        let expected = ReplyPayload::new(
            &delivery.id,
            &delivery.created_at,
            &after.case,
            HumanAction::Resolved,
            "Refund issued.",
            vec![],
        );
        assert_eq!(body, serde_json::to_string(&expected).unwrap());
        assert!(body.contains(r#""status":"resolved""#));
    }
}

#[test]
fn the_reply_payload_is_exactly_the_spec_shape() {
    let db = &crate::support::Db::sqlite();
    let mut case = db.open_case(refund_case("conv-1")).unwrap().case;
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
    assert_eq!(
        instruction(HumanAction::Resolved),
        "Relay the person's conclusion in `text` to the lead naturally, in your own words, and close the topic."
    );
    assert_eq!(
        instruction(HumanAction::Escalate),
        "Stop replying in this conversation: a person is taking it over from here."
    );
}
