//! The inbox's search: every word of a case is found (its fields, the answers on its timeline,
//! its notes), accents and case ignored, each word typed as a prefix, all of them required; the
//! number with or without `#`; whatever a person types never makes the search fail. SQLite
//! searches a full-text index and PostgreSQL a trigram index; what only one of them does is
//! tested on that one.

use skillcase_cases::model::{ContextMessage, HumanAction, Lead, NewCase};
use skillcase_cases::sql::Storage;
use skillcase_cases::store::{CaseFilter, CaseTab, FEW_MATCHES};
use skillcase_cases::CasesRepository;
use skillcase_cases_sqlite::inbox::match_query;

use crate::support::{refund_case, Db};

fn found(db: &Db, search: &str) -> Vec<i64> {
    let filter = CaseFilter { search: Some(search.into()), ..CaseFilter::default() };
    db.list_cases(&filter).unwrap().items.iter().map(|i| i.case.number).collect()
}

fn brazilian_case(conversation_id: &str) -> NewCase {
    NewCase {
        lead: Lead {
            name: Some("João Araújo".into()),
            contact: Some("joao@exemplo.com.br".into()),
            ..Lead::default()
        },
        title: "Reembolso de cobrança duplicada".into(),
        summary: "O cliente foi cobrado duas vezes no cartão.".into(),
        blocker: Some("Estornos acima de R$ 500 precisam de aprovação.".into()),
        context: vec![ContextMessage {
            role: "lead".into(),
            text: "Quero meu dinheiro de volta já!".into(),
            at: None,
        }],
        ..refund_case(conversation_id)
    }
}

fn open(db: &Db, new: NewCase) -> i64 {
    db.open_case(new).unwrap().case.number
}

on_both! {
    fn a_case_is_found_by_a_word_of_its_title_summary_blocker_lead_context_or_conversation(db) {
        db.open("conv-other");
        let number = open(db, brazilian_case("wa-5521"));
        for word in ["duplicada", "cartão", "aprovação", "Araújo", "exemplo", "dinheiro", "wa-5521"] {
            assert_eq!(found(db, word), [number], "{word}");
        }
    }
}

on_both! {
    fn a_conversation_id_is_found_as_it_is_typed(db) {
        let number = open(db, brazilian_case("wa-5521"));
        open(db, brazilian_case("wa-6600"));
        for typed in ["wa-5", "wa-55", "WA-5521"] {
            assert_eq!(found(db, typed), [number], "{typed}");
        }
    }
}

on_both! {
    fn accents_and_case_are_ignored_both_ways(db) {
        let number = open(db, brazilian_case("conv-1"));
        assert_eq!(found(db, "JOAO araujo"), [number]);
        assert_eq!(found(db, "cobranca"), [number]);
        assert_eq!(found(db, "cartâo"), [number]);
    }
}

on_both! {
    fn each_word_typed_so_far_matches_as_a_prefix_and_all_of_them_must_match(db) {
        let number = open(db, brazilian_case("conv-1"));
        db.open("conv-2");
        assert_eq!(found(db, "reemb"), [number]);
        assert_eq!(found(db, "jo ar"), [number]);
        assert_eq!(found(db, "wa-5 conv-1"), Vec::<i64>::new());
        assert_eq!(found(db, "reemb maria"), Vec::<i64>::new());
    }
}

on_both! {
    fn a_person_s_answer_the_customer_s_answer_and_an_internal_note_are_found(db) {
        let id = db.open("conv-1");
        db.open("conv-2");
        db.reply(&id, HumanAction::NeedLeadInfo, "Which marketplace sold it?", "Ana").unwrap();
        db.provide_update(&id, "Bought through Shopee").unwrap();
        db.add_note(&id, "Gerente aprovou a exceção por telefone.", "Ana").unwrap();
        for typed in ["marketplace", "shopee", "excec", "excecao", "gerente telef"] {
            assert_eq!(found(db, typed), [1001], "{typed}");
        }
    }
}

on_both! {
    fn the_number_is_found_with_or_without_the_hash(db) {
        db.open("conv-1");
        db.open("conv-2");
        assert_eq!(found(db, "#1002"), [1002]);
        assert_eq!(found(db, "1001"), [1001]);
    }
}

on_both! {
    fn a_number_finds_its_case_and_the_cases_that_mention_it(db) {
        db.open("conv-1");
        let mut follow_up = refund_case("conv-2");
        follow_up.title = "Second charge after case 1001".into();
        open(db, follow_up);
        db.open("conv-3");
        assert_eq!(found(db, "1001"), [1001, 1002]);
        assert_eq!(found(db, "#1003"), [1003]);
    }
}

on_both! {
    fn search_finds_by_title_lead_and_conversation_and_punctuation_alone_finds_nothing(db) {
        db.open("conv-alpha");
        let mut other = refund_case("conv-beta");
        other.title = "Wrong size shipped (100%_cotton)".into();
        other.lead.name = Some("João Lima".into());
        open(db, other);
        assert_eq!(found(db, "double charge"), [1001]);
        assert_eq!(found(db, "joão"), [1002]);
        assert_eq!(found(db, "conv-beta"), [1002]);
        assert_eq!(found(db, "100%_"), [1002]);
        assert_eq!(found(db, "%"), Vec::<i64>::new(), "punctuation alone is no word to find");
        assert_eq!(found(db, "_"), Vec::<i64>::new());
        assert_eq!(found(db, "* -"), Vec::<i64>::new());
    }
}

on_both! {
    fn search_narrows_the_tab_and_counts_only_what_it_found(db) {
        let open_one = open(db, brazilian_case("conv-1"));
        let closed = db.open_case(brazilian_case("conv-2")).unwrap().case.id;
        db.open("conv-3");
        db.reply(&closed, HumanAction::Resolved, "Estornado.", "Ana").unwrap();
        let filter = CaseFilter {
            tab: Some(CaseTab::WaitingOnYou),
            search: Some("reembolso".into()),
            ..CaseFilter::default()
        };
        let page = db.list_cases(&filter).unwrap();
        assert_eq!(
            (page.items.iter().map(|i| i.case.number).collect::<Vec<_>>(), page.total),
            (vec![open_one], 1)
        );
        assert_eq!(page.counts.waiting_on_you, 2, "the counts ignore the search");
    }
}

on_both! {
    fn text_with_search_syntax_is_searched_as_text_and_never_fails(db) {
        db.open("conv-1");
        db.open("conv-2");
        for typed in [
            "\"",
            "\"\"",
            "*",
            "refund*",
            "-refund",
            "^refund",
            "title:refund",
            "(refund",
            "refund)",
            "AND",
            "OR refund",
            "NOT",
            "NEAR(refund charge)",
            "refund AND",
            "\"unclosed",
            "{title summary}: refund",
            "+",
            ":",
            "%",
            "_",
            "\\",
            "'; DROP TABLE cases; --",
            "ref\"und",
            "\u{0345}",
            "🙂",
        ] {
            let filter = CaseFilter { search: Some(typed.into()), ..CaseFilter::default() };
            assert!(db.list_cases(&filter).is_ok(), "{typed:?}");
        }
        assert_eq!(found(db, "refund AND"), [1001, 1002], "AND is a word to find (\"…order 5512 and…\")");
        assert_eq!(found(db, "refund AND"), found(db, "and refund"));
        assert_eq!(db.int("SELECT count(*) FROM cases"), 2);
    }
}

on_both! {
    fn a_blank_search_narrows_nothing(db) {
        db.open("conv-1");
        db.open("conv-2");
        let page =
            db.list_cases(&CaseFilter { search: Some("   ".into()), ..CaseFilter::default() }).unwrap();
        assert_eq!(
            (page.items.iter().map(|i| i.case.number).collect::<Vec<_>>(), page.total),
            (vec![1001, 1002], 2)
        );
    }
}

// SQLite's full-text search.

#[test]
fn each_typed_word_becomes_a_quoted_prefix_phrase_of_the_sqlite_index() {
    assert_eq!(match_query("  refund  \"double\" "), Some("\"refund\"* \"\"\"double\"\"\"*".to_string()));
    assert_eq!(match_query("\" * - ( )"), None);
}

#[test]
fn on_sqlite_a_stray_quote_is_only_punctuation() {
    let db = &Db::sqlite();
    db.open("conv-1");
    assert_eq!(found(db, "\"refund"), [1001]);
}

#[test]
fn on_sqlite_a_search_most_cases_match_pages_in_the_tab_s_order_too() {
    let db = &Db::sqlite();
    db.write(|sql| {
        (0..=FEW_MATCHES).try_for_each(|n| {
            skillcase_cases::transition::open_case(sql, &refund_case(&format!("conv-{n}"))).map(drop)
        })
    })
    .unwrap();
    let tab = CaseFilter { tab: Some(CaseTab::WaitingOnYou), offset: 40, limit: 20, ..CaseFilter::default() };
    let searched = CaseFilter { search: Some("refund".into()), ..tab.clone() };
    let numbers = |filter: &CaseFilter| -> Vec<i64> {
        db.list_cases(filter).unwrap().items.iter().map(|i| i.case.number).collect()
    };
    assert_eq!(numbers(&searched), (1041..1061).collect::<Vec<i64>>());
    assert_eq!(numbers(&searched), numbers(&tab));
}

// PostgreSQL's trigram search.

#[test]
fn on_postgres_like_wildcards_typed_match_only_themselves() {
    let db = &Db::postgres();
    db.open("conv-alpha");
    let mut other = refund_case("conv-beta");
    other.title = "Wrong size shipped (100%_cotton)".into();
    open(db, other);
    assert_eq!(found(db, "100%_"), [1002]);
    assert_eq!(found(db, "10_%"), Vec::<i64>::new(), "_ and % match only themselves");
}
