//! The guardrail's veto counts per turn: each veto counts one more (also when two instances veto
//! the same turn at once), an open case covers the conversation, and the case the guardrail
//! opened is remembered for its turn.

use std::collections::HashSet;

use skillcase_cases::model::CaseStatus;
use skillcase_cases::repository::{Veto, VetoCount};
use skillcase_cases::CasesRepository;

use crate::support::{at_once, Db};

fn veto(conversation: &str, turn: &str) -> Veto {
    Veto {
        conversation_id: conversation.into(),
        turn_id: turn.into(),
        rule: Some("promise_without_case".into()),
        evidence: Some("Te retorno ainda hoje.".into()),
        message: "Obrigada! Te retorno ainda hoje.".into(),
    }
}

fn vetoes(db: &Db, conversation: &str, turn: &str) -> i64 {
    match db.record_veto(&veto(conversation, turn)).unwrap() {
        VetoCount::Vetoes(n) => n,
        VetoCount::Covered(case) => panic!("covered by case {}", case.id),
    }
}

on_both! {
    fn each_veto_in_a_turn_counts_one_more(db) {
        assert_eq!(vetoes(db, "conv-1", "turn-1"), 1);
        assert_eq!(vetoes(db, "conv-1", "turn-1"), 2);
    }
}

on_both! {
    fn vetoes_in_different_turns_or_conversations_do_not_add_up(db) {
        vetoes(db, "conv-1", "turn-1");
        assert_eq!(vetoes(db, "conv-1", "turn-2"), 1);
        assert_eq!(vetoes(db, "conv-2", "turn-1"), 1);
    }
}

on_both! {
    fn a_veto_keeps_the_last_rule_and_evidence_of_its_turn(db) {
        vetoes(db, "conv-1", "turn-1");
        let last = Veto {
            rule: Some("second_rule".into()),
            evidence: Some("Amanhã ligamos.".into()),
            ..veto("conv-1", "turn-1")
        };
        db.record_veto(&last).unwrap();
        let stored = &db.rows("SELECT vetoes, last_rule, last_evidence FROM guard_vetoes")[0];
        assert_eq!(
            (stored.int(0).unwrap(), stored.text(1).unwrap(), stored.text(2).unwrap()),
            (2, "second_rule".into(), "Amanhã ligamos.".into())
        );
    }
}

on_both! {
    fn a_conversation_with_an_open_case_is_covered_and_counts_nothing(db) {
        let id = db.open("conv-1");
        let VetoCount::Covered(case) = db.record_veto(&veto("conv-1", "turn-1")).unwrap() else {
            panic!("the open case covers the promise")
        };
        assert_eq!((case.id, case.number), (id, 1001));
        assert_eq!(db.int("SELECT count(*) FROM guard_vetoes"), 0);
    }
}

on_both! {
    fn a_closed_case_does_not_cover_a_new_promise(db) {
        db.case_in("conv-1", CaseStatus::Resolved);
        assert_eq!(vetoes(db, "conv-1", "turn-1"), 1);
    }
}

on_both! {
    fn two_instances_vetoing_one_turn_at_once_count_every_veto_once(db) {
        let counts: Vec<i64> = at_once(db, 4, |instance, _| {
            (0..5).map(|_| vetoes(instance, "conv-1", "turn-1")).collect::<Vec<_>>()
        })
        .into_iter()
        .flatten()
        .collect();
        let distinct: HashSet<i64> = counts.iter().copied().collect();
        assert_eq!(distinct, (1..=20).collect::<HashSet<i64>>(), "each veto saw its own count: {counts:?}");
    }
}

on_both! {
    fn the_case_the_guardrail_opened_is_remembered_for_its_turn(db) {
        vetoes(db, "conv-1", "turn-1");
        vetoes(db, "conv-1", "turn-2");
        let id = db.open("conv-1");
        db.note_auto_case("conv-1", "turn-2", &id).unwrap();
        let stored: Vec<(String, Option<String>)> = db
            .rows("SELECT turn_id, auto_case_id FROM guard_vetoes ORDER BY turn_id")
            .iter()
            .map(|row| (row.text(0).unwrap(), row.opt_text(1).unwrap()))
            .collect();
        assert_eq!(stored, [("turn-1".into(), None), ("turn-2".into(), Some(id))]);
    }
}
