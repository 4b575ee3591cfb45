//! Text both databases keep alike: a NUL character (which PostgreSQL refuses in text and in
//! `jsonb`) in a customer's words, an agent's update, a promise, a veto or a person's answer is
//! stored as U+FFFD on either database, and every step that carries it succeeds.

use skillcase_cases::model::{ContextMessage, HumanAction, Lead};
use skillcase_cases::promises::NewPromise;
use skillcase_cases::repository::Veto;
use skillcase_cases::store::CaseFilter;
use skillcase_cases::CasesRepository;

use crate::support::refund_case;

const SHOWN: &str = "\u{FFFD}";

fn case_with_nul(conversation: &str) -> skillcase_cases::model::NewCase {
    skillcase_cases::model::NewCase {
        lead: Lead { name: Some("Maria\0 Souza".into()), ..refund_case(conversation).lead },
        title: "Refund\0 for a double charge".into(),
        summary: "Charged twice\0 for order 5512.".into(),
        context: vec![ContextMessage {
            role: "lead".into(),
            text: "I was charged twice!\0\0".into(),
            at: None,
        }],
        ..refund_case(conversation)
    }
}

on_both! {
    fn a_case_opened_with_nul_characters_keeps_them_as_replacement_characters(db) {
        let case = db.open_case(case_with_nul("conv-nul")).unwrap().case;
        let stored = db.case(&case.id);
        assert_eq!(
            (stored.title.as_str(), stored.summary.as_str(), stored.lead.name.as_deref()),
            (
                format!("Refund{SHOWN} for a double charge").as_str(),
                format!("Charged twice{SHOWN} for order 5512.").as_str(),
                Some(format!("Maria{SHOWN} Souza").as_str()),
            )
        );
        assert_eq!(stored.context[0].text, format!("I was charged twice!{SHOWN}{SHOWN}"));
        assert_eq!(case, stored, "the case returned is the case stored");
    }
}

on_both! {
    fn an_agents_update_with_a_nul_character_is_taken(db) {
        let id = db.open("conv-1");
        db.reply(&id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
        db.provide_update(&id, "The Visa\0 ending 4242.").unwrap();
        let info = db.events(&id).last().unwrap().payload["info"].clone();
        assert_eq!(info, format!("The Visa{SHOWN} ending 4242."));
    }
}

on_both! {
    fn a_persons_answer_and_note_with_nul_characters_are_kept_and_relayed_without_them(db) {
        let id = db.open("conv-1");
        db.add_note(&id, "Checked\0 the ledger.", "Ana").unwrap();
        let (answered, delivery) = db.reply(&id, HumanAction::Resolved, "Refund\0 issued.", "Ana").unwrap();
        let texts: Vec<String> =
            answered.events.iter().filter_map(|e| e.payload["text"].as_str().map(str::to_string)).collect();
        assert_eq!(texts, [format!("Checked{SHOWN} the ledger."), format!("Refund{SHOWN} issued.")]);
        assert_eq!(db.body(&delivery.id)["text"], format!("Refund{SHOWN} issued."));
    }
}

on_both! {
    fn a_promise_and_a_veto_quoting_a_nul_character_are_recorded(db) {
        let id = db.open("conv-1");
        let promise = NewPromise {
            quote: "I will call you\0 tomorrow.".into(),
            actor: Some("I".into()),
            action: Some("call you".into()),
            due_text: Some("tomorrow".into()),
            due_at: Some("2026-12-02T12:00:00.000Z".into()),
            turn_id: "turn-1".into(),
            spans: vec![],
        };
        assert!(db.record_promise(&id, &promise).unwrap(), "recorded once");
        assert!(!db.record_promise(&id, &promise).unwrap(), "and found again by its quote");
        db.record_veto(&Veto {
            conversation_id: "conv-2".into(),
            turn_id: "turn-1".into(),
            rule: Some("promise_without_case".into()),
            evidence: Some("We'll call\0 you.".into()),
            message: "Thanks! We'll call\0 you.".into(),
        })
        .unwrap();
        assert_eq!(db.text("SELECT last_evidence FROM guard_vetoes"), Some(format!("We'll call{SHOWN} you.")));
        let owed = db.text(&format!("SELECT promise_quote FROM cases WHERE id = '{id}'"));
        assert_eq!(owed, Some(format!("I will call you{SHOWN} tomorrow.")));
    }
}

on_both! {
    fn a_search_with_a_nul_character_finds_what_the_replacement_character_stands_for(db) {
        let id = db.open_case(case_with_nul("conv-nul")).unwrap().case.id;
        let filter = CaseFilter { search: Some("Refund\0".into()), ..CaseFilter::default() };
        let found: Vec<String> = db.list_cases(&filter).unwrap().items.into_iter().map(|i| i.case.id).collect();
        assert_eq!(found, [id]);
    }
}
