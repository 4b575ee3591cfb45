//! What people teach the guardrail: their marks on the agent's messages, the veto log they mark
//! from, and the model a retrain adopted, on both databases.

use skillcase_cases::marks::{MarkSource, NewMark};
use skillcase_cases::repository::Veto;
use skillcase_cases::{CasesError, CasesRepository, GuardRepository};
use skillcase_guard::retrain::{Figures, ModelFigures, Report};

fn mark(text: &str, promise: bool) -> NewMark {
    NewMark { text: text.into(), promise, source: MarkSource::Veto, conversation_id: Some("conv-1".into()) }
}

on_both! {
    fn a_mark_keeps_the_message_the_verdict_who_marked_it_and_where(db) {
        let stored = db.add_mark(&mark("  O estorno constará em fatura em até 3 dias úteis.  ", false), "Ana").unwrap();
        assert_eq!(
            (stored.text.as_str(), stored.promise, stored.source, stored.conversation_id.as_deref(), stored.marked_by.as_str()),
            ("O estorno constará em fatura em até 3 dias úteis.", false, MarkSource::Veto, Some("conv-1"), "Ana")
        );
        assert_eq!(db.marks().unwrap(), vec![stored]);
    }
}

on_both! {
    fn a_message_marked_again_keeps_only_its_newest_verdict(db) {
        db.add_mark(&mark("Send us a DM so our team can call you.", false), "Ana").unwrap();
        let again = db.add_mark(&mark("Send us a DM so our team can call you.", true), "Bruno").unwrap();
        assert_eq!(db.marks().unwrap(), vec![again]);
    }
}

on_both! {
    fn marks_are_read_oldest_first(db) {
        let first = db.add_mark(&mark("first", true), "Ana").unwrap();
        let second = db.add_mark(&mark("second", false), "Ana").unwrap();
        assert_eq!(db.marks().unwrap().iter().map(|m| m.id).collect::<Vec<_>>(), vec![first.id, second.id]);
    }
}

on_both! {
    fn a_blank_mark_is_refused_and_nothing_is_stored(db) {
        let err = db.add_mark(&mark("   ", true), "Ana").unwrap_err();
        assert!(matches!(err, CasesError::TextRequired { field: "text" }), "{err:?}");
        assert!(db.marks().unwrap().is_empty());
    }
}

on_both! {
    fn taking_back_a_mark_that_is_not_there_is_guard_mark_not_found(db) {
        let stored = db.add_mark(&mark("We'll call you tomorrow.", true), "Ana").unwrap();
        db.remove_mark(stored.id).unwrap();
        let err = db.remove_mark(stored.id).unwrap_err();
        assert!(matches!(err, CasesError::GuardMarkNotFound { id } if id == stored.id), "{err:?}");
    }
}

on_both! {
    fn the_veto_log_shows_each_turn_s_whole_message_and_the_person_s_mark_newest_first(db) {
        let veto = |conversation: &str, message: &str| Veto {
            conversation_id: conversation.into(),
            turn_id: "turn-1".into(),
            rule: Some("model".into()),
            evidence: Some(message.into()),
            message: message.into(),
        };
        db.record_veto(&veto("conv-1", "O estorno constará em fatura em até 3 dias úteis.")).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5));
        db.record_veto(&veto("conv-2", "Te ligo amanhã.")).unwrap();
        db.add_mark(&mark("O estorno constará em fatura em até 3 dias úteis.", false), "Ana").unwrap();

        let log = db.vetoes(10).unwrap();
        let shown: Vec<_> = log.iter().map(|v| (v.conversation_id.as_str(), v.message.as_deref(), v.marked)).collect();
        assert_eq!(
            shown,
            vec![
                ("conv-2", Some("Te ligo amanhã."), None),
                ("conv-1", Some("O estorno constará em fatura em até 3 dias úteis."), Some(false)),
            ]
        );
        assert_eq!(db.vetoes(1).unwrap().len(), 1);
    }
}

on_both! {
    fn an_adopted_model_is_read_back_to_the_bit_until_it_is_forgotten(db) {
        assert!(db.adopted_model().unwrap().is_none());
        let model = skillcase_guard::model().clone();
        let figures = ModelFigures {
            blind_en: Figures { promises: 260, caught: 251, clear: 260, false_alarms: 4 },
            blind_pt_br: Figures { promises: 260, caught: 252, clear: 260, false_alarms: 5 },
            held_out_marks: Figures { promises: 1, caught: 1, clear: 0, false_alarms: 0 },
        };
        let report = Report { marks: 4, trained_on: 3, held_out: 1, before: figures, after: figures, adopted: true, refusals: vec![] };
        let at = db.adopt_model(&model, &report, "Ana").unwrap();

        let adopted = db.adopted_model().unwrap().unwrap();
        assert_eq!((adopted.model.to_bytes(), &adopted.report, adopted.adopted_by.as_str()), (model.to_bytes(), &report, "Ana"));
        assert_eq!(db.adopted_at().unwrap(), Some(at));
        db.forget_model().unwrap();
        assert!(db.adopted_model().unwrap().is_none());
    }
}
