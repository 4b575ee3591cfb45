//! Several agents, one inbox: each agent's own endpoint receives its cases' replies (the others
//! go to the default endpoint), an agent's settings are checked before anything is stored, an
//! agent whose cases are switched off cannot open one, and one whose guardrail is switched off
//! gets every message passed, saying so.

use std::time::Duration;

use skillcase_cases::agents::AgentInput;
use skillcase_cases::endpoint::EndpointInput;
use skillcase_cases::guard::{before_send, BeforeSend, GuardrailState, Verdict, VerdictKind};
use skillcase_cases::model::{HumanAction, NewCase};
use skillcase_cases::{CasesRepository, OutboxRepository};
use skillcase_common::error::Coded;
use skillcase_guard::due::Calendar;

use crate::support::{endpoint_input, refund_case, Db, SECRET};

const MARGIN: Duration = Duration::from_secs(5);
const DEFAULT_URL: &str = "http://127.0.0.1:9/default";
const BILLING_URL: &str = "http://127.0.0.1:9/billing";

/// An agent with every switch on and, with a `url`, its own endpoint signing with [`SECRET`].
fn agent(id: &str, url: Option<&str>) -> AgentInput {
    AgentInput {
        agent_id: id.into(),
        url: url.map(Into::into),
        secret: url.map(|_| SECRET.into()),
        cases_enabled: true,
        guardrail_enabled: true,
    }
}

fn case_of(agent_id: &str, conversation: &str) -> NewCase {
    NewCase { agent_id: Some(agent_id.into()), ..refund_case(conversation) }
}

/// A case of `agent_id` resolved by a person; its id.
fn answered(db: &Db, agent_id: &str, conversation: &str) -> String {
    let id = db.open_case(case_of(agent_id, conversation)).unwrap().case.id;
    db.reply(&id, HumanAction::Resolved, "Refunded.", "Ana").unwrap();
    id
}

// Where replies go.

on_both! {
    fn a_reply_on_a_case_of_an_agent_with_its_own_endpoint_goes_there_with_its_secret(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        db.set_agent(agent("billing-bot", Some(BILLING_URL))).unwrap();
        answered(db, "billing-bot", "conv-1");
        let claimed = db.claim_next(MARGIN).unwrap().unwrap();
        assert_eq!((claimed.endpoint.url.as_str(), claimed.endpoint.secret.as_str()), (BILLING_URL, SECRET));
        assert_eq!((claimed.endpoint.timeout_secs, claimed.endpoint.max_attempts), (10, 15));
    }
}

on_both! {
    fn a_reply_on_a_case_of_an_agent_without_its_own_endpoint_goes_to_the_default_one(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        db.set_agent(agent("sales-bot", None)).unwrap();
        answered(db, "sales-bot", "conv-1");
        assert_eq!(db.claim_next(MARGIN).unwrap().unwrap().endpoint.url, DEFAULT_URL);
    }
}

on_both! {
    fn with_the_default_endpoint_off_only_agents_with_their_own_endpoint_are_sent_and_the_rest_wait(db) {
        db.set_endpoint(EndpointInput { enabled: false, ..endpoint_input(DEFAULT_URL) }).unwrap();
        db.set_agent(agent("billing-bot", Some(BILLING_URL))).unwrap();
        answered(db, "sales-bot", "conv-1");
        assert_eq!(db.next_due_at().unwrap(), None, "a delivery with nowhere to go does not wake the worker");
        let routed = answered(db, "billing-bot", "conv-2");
        assert_eq!(db.claim_next(MARGIN).unwrap().unwrap().case_id, routed);
        assert_eq!(db.claim_next(MARGIN).unwrap(), None);
    }
}

on_both! {
    fn removing_an_agent_sends_its_replies_to_the_default_endpoint_again(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        db.set_agent(agent("billing-bot", Some(BILLING_URL))).unwrap();
        db.remove_agent("billing-bot").unwrap();
        answered(db, "billing-bot", "conv-1");
        assert_eq!(db.claim_next(MARGIN).unwrap().unwrap().endpoint.url, DEFAULT_URL);
        assert_eq!(db.remove_agent("billing-bot").unwrap_err().code(), "agent_not_found");
    }
}

// An agent's settings.

on_both! {
    fn an_agent_with_its_own_endpoint_needs_a_secret_and_nothing_is_stored(db) {
        let err =
            db.set_agent(AgentInput { secret: None, ..agent("billing-bot", Some(BILLING_URL)) }).unwrap_err();
        assert_eq!(err.code(), "invalid_endpoint_setting");
        assert!(db.agents().unwrap().is_empty(), "nothing was stored");
    }
}

on_both! {
    fn a_saved_agent_secret_is_kept_when_the_agent_is_saved_again_without_one(db) {
        db.set_agent(agent("billing-bot", Some(BILLING_URL))).unwrap();
        let again = AgentInput {
            secret: None,
            guardrail_enabled: false,
            ..agent("billing-bot", Some("http://127.0.0.1:9/b2"))
        };
        db.another_instance().set_agent(again).unwrap();
        answered(db, "billing-bot", "conv-1");
        let endpoint = db.claim_next(MARGIN).unwrap().unwrap().endpoint;
        assert_eq!((endpoint.url.as_str(), endpoint.secret.as_str()), ("http://127.0.0.1:9/b2", SECRET));
    }
}

on_both! {
    fn an_agent_url_that_is_invalid_or_has_credentials_is_refused_and_nothing_is_stored(db) {
        let err = db.set_agent(agent("billing-bot", Some("http://u:hunter2@127.0.0.1:9/b"))).unwrap_err();
        assert_eq!(err.code(), "endpoint_url_has_credentials");
        assert_eq!(
            db.set_agent(agent("billing-bot", Some("ftp://x/b"))).unwrap_err().code(),
            "invalid_endpoint_url"
        );
        assert!(db.agents().unwrap().is_empty());
    }
}

on_both! {
    fn a_blank_agent_id_is_refused(db) {
        assert_eq!(db.set_agent(agent("   ", None)).unwrap_err().code(), "invalid_agent_id");
    }
}

on_both! {
    fn an_agent_url_stored_with_credentials_is_shown_masked_and_its_secret_never(db) {
        db.set_agent(agent("billing-bot", Some(BILLING_URL))).unwrap();
        db.exec(
            "UPDATE agents SET url = 'http://u:hunter2@127.0.0.1:9/billing' WHERE agent_id = 'billing-bot'",
        );
        let view = db.agents().unwrap().remove(0);
        assert_eq!(
            (view.url.as_deref(), view.configured, view.cases),
            (Some("http://***@127.0.0.1:9/billing"), true, 0)
        );
        let shown = serde_json::to_string(&view).unwrap();
        assert!(!shown.contains("hunter2") && !shown.contains("MfKQ9"), "{shown}");
    }
}

on_both! {
    fn settings_list_agents_seen_on_cases_beside_the_configured_ones_with_their_case_counts(db) {
        db.open_case(case_of("sales-bot", "conv-1")).unwrap();
        db.open_case(case_of("sales-bot", "conv-2")).unwrap();
        db.set_agent(AgentInput { guardrail_enabled: false, ..agent("billing-bot", Some("http://u@x")) })
            .unwrap_err();
        db.set_agent(AgentInput { guardrail_enabled: false, ..agent("billing-bot", None) }).unwrap();
        let listed: Vec<(String, bool, bool, i64)> = db
            .another_instance()
            .agents()
            .unwrap()
            .into_iter()
            .map(|a| (a.agent_id, a.configured, a.guardrail_enabled, a.cases))
            .collect();
        let expected = [("billing-bot".to_string(), true, false, 0), ("sales-bot".to_string(), false, true, 2)];
        assert_eq!(listed, expected);
    }
}

// An agent's switches.

on_both! {
    fn an_agent_with_its_cases_switched_off_cannot_open_one_and_nothing_is_written(db) {
        db.set_agent(AgentInput { cases_enabled: false, ..agent("quiet-bot", None) }).unwrap();
        let err = db.open_case(case_of("quiet-bot", "conv-1")).unwrap_err();
        assert_eq!(err.code(), "agent_cases_disabled");
        assert_eq!(err.details().unwrap()["agent_id"], "quiet-bot");
        assert_eq!(db.int("SELECT count(*) FROM cases"), 0);
        assert_eq!(db.int("SELECT next FROM case_counter"), 1001, "no number was used");
    }
}

fn ask(db: &Db, agent_id: &str, turn: &str) -> Verdict {
    let request = BeforeSend {
        conversation_id: "conv-9".into(),
        turn_id: turn.into(),
        message: "Our team will get back to you tomorrow with the refund.".into(),
        agent_id: Some(agent_id.into()),
    };
    before_send(db, request, skillcase_guard::model(), &|| Calendar::named("America/Sao_Paulo").unwrap())
        .unwrap()
}

on_both! {
    fn with_its_guardrail_switched_off_an_agent_s_promise_passes_and_the_verdict_says_so(db) {
        db.set_agent(AgentInput { guardrail_enabled: false, ..agent("sales-bot", None) }).unwrap();
        let verdict = ask(db, "sales-bot", "t1");
        assert_eq!((verdict.verdict, verdict.guardrail), (VerdictKind::Pass, GuardrailState::Disabled));
        assert!(verdict.reason.unwrap().contains("switched off"));
    }
}

on_both! {
    fn the_same_promise_from_an_agent_with_its_guardrail_on_is_vetoed(db) {
        let verdict = ask(db, "sales-bot", "t1");
        assert_eq!((verdict.verdict, verdict.guardrail), (VerdictKind::Veto, GuardrailState::Enabled));
    }
}

on_both! {
    fn the_case_the_guardrail_opens_carries_the_agent_id(db) {
        ask(db, "sales-bot", "t1");
        let id = ask(db, "sales-bot", "t1").auto_opened_case.unwrap().id;
        assert_eq!(db.case(&id).agent_id.as_deref(), Some("sales-bot"));
    }
}

on_both! {
    fn the_second_veto_stays_a_veto_when_the_agent_may_not_open_cases(db) {
        db.set_agent(AgentInput { cases_enabled: false, ..agent("quiet-bot", None) }).unwrap();
        ask(db, "quiet-bot", "t1");
        let second = ask(db, "quiet-bot", "t1");
        assert_eq!(second.verdict, VerdictKind::Veto);
        assert!(second.auto_opened_case.is_none());
        assert!(second.reason.unwrap().contains("cases are switched off"));
    }
}
