//! The inbox's search over the full-text index: every word of a case is found, accents and case
//! ignored, each word typed as a prefix; the index follows every write; whatever a person types
//! never makes the search fail.

mod support;

use rusqlite::Connection;
use skillcase_cases::model::{ContextMessage, HumanAction, Lead, NewCase};
use skillcase_cases::notes::add_note;
use skillcase_cases::store::{list_cases, match_query, CaseFilter, CaseTab};
use skillcase_cases::transition::{open_case, provide_update, reply};
use support::{new_db, refund_case};

fn found(conn: &Connection, search: &str) -> Vec<i64> {
    let filter = CaseFilter { search: Some(search.into()), ..CaseFilter::default() };
    list_cases(conn, &filter).unwrap().items.iter().map(|i| i.case.number).collect()
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

#[test]
fn a_case_is_found_by_a_word_of_its_title_summary_blocker_lead_context_or_conversation() {
    let (_dir, _path, conn) = new_db();
    open_case(&conn, refund_case("conv-other")).unwrap();
    let number = open_case(&conn, brazilian_case("wa-5521")).unwrap().case.number;
    for word in ["duplicada", "cartão", "aprovação", "Araújo", "exemplo", "dinheiro", "wa-5521"] {
        assert_eq!(found(&conn, word), [number], "{word}");
    }
}

#[test]
fn a_conversation_id_is_found_as_it_is_typed() {
    let (_dir, _path, conn) = new_db();
    let number = open_case(&conn, brazilian_case("wa-5521")).unwrap().case.number;
    open_case(&conn, brazilian_case("wa-6600")).unwrap();
    for typed in ["wa-5", "wa-55", "WA-5521"] {
        assert_eq!(found(&conn, typed), [number], "{typed}");
    }
}

#[test]
fn accents_and_case_are_ignored_both_ways() {
    let (_dir, _path, conn) = new_db();
    let number = open_case(&conn, brazilian_case("conv-1")).unwrap().case.number;
    assert_eq!(found(&conn, "JOAO araujo"), [number]);
    assert_eq!(found(&conn, "cobranca"), [number]);
    assert_eq!(found(&conn, "cartâo"), [number]);
}

#[test]
fn each_word_typed_so_far_matches_as_a_prefix_and_all_of_them_must_match() {
    let (_dir, _path, conn) = new_db();
    let number = open_case(&conn, brazilian_case("conv-1")).unwrap().case.number;
    open_case(&conn, refund_case("conv-2")).unwrap();
    assert_eq!(found(&conn, "reemb"), [number]);
    assert_eq!(found(&conn, "jo ar"), [number]);
    assert_eq!(found(&conn, "reemb maria"), Vec::<i64>::new());
}

#[test]
fn a_person_s_answer_and_the_lead_s_answer_are_found() {
    let (_dir, _path, conn) = new_db();
    let case = open_case(&conn, refund_case("conv-1")).unwrap().case;
    open_case(&conn, refund_case("conv-2")).unwrap();
    reply(&conn, &case.id, HumanAction::NeedLeadInfo, "Which marketplace sold it?", "Ana").unwrap();
    provide_update(&conn, &case.id, "Bought through Shopee").unwrap();
    assert_eq!(found(&conn, "marketplace"), [case.number]);
    assert_eq!(found(&conn, "shopee"), [case.number]);
}

#[test]
fn an_internal_note_is_found_by_a_word_typed_without_its_accents() {
    let (_dir, _path, conn) = new_db();
    let case = open_case(&conn, refund_case("conv-1")).unwrap().case;
    open_case(&conn, refund_case("conv-2")).unwrap();
    add_note(&conn, &case.id, "Gerente aprovou a exceção por telefone.", "Ana").unwrap();
    assert_eq!(found(&conn, "excec"), [case.number]);
    assert_eq!(found(&conn, "gerente telef"), [case.number]);
}

#[test]
fn the_number_is_still_found_with_or_without_the_hash() {
    let (_dir, _path, conn) = new_db();
    open_case(&conn, refund_case("conv-1")).unwrap();
    let second = open_case(&conn, refund_case("conv-2")).unwrap().case.number;
    assert_eq!(found(&conn, &format!("#{second}")), [second]);
    assert_eq!(found(&conn, &second.to_string()), [second]);
}

#[test]
fn search_narrows_the_tab_and_counts_only_what_it_found() {
    let (_dir, _path, conn) = new_db();
    let open = open_case(&conn, brazilian_case("conv-1")).unwrap().case;
    let closed = open_case(&conn, brazilian_case("conv-2")).unwrap().case;
    reply(&conn, &closed.id, HumanAction::Resolved, "Estornado.", "Ana").unwrap();
    let filter = CaseFilter {
        tab: Some(CaseTab::WaitingOnYou),
        search: Some("reembolso".into()),
        ..CaseFilter::default()
    };
    let page = list_cases(&conn, &filter).unwrap();
    assert_eq!(page.items.iter().map(|i| i.case.number).collect::<Vec<_>>(), [open.number]);
    assert_eq!(page.total, 1);
}

#[test]
fn text_with_search_syntax_is_searched_as_text_and_never_fails() {
    let (_dir, _path, conn) = new_db();
    open_case(&conn, refund_case("conv-1")).unwrap();
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
        assert!(list_cases(&conn, &filter).is_ok(), "{typed:?}");
    }
    assert_eq!(found(&conn, "refund AND"), found(&conn, "and refund"), "AND is a word, not an operator");
    assert_eq!(found(&conn, "\"refund"), [1001], "a stray quote is only punctuation");
}

#[test]
fn a_search_with_no_letters_or_digits_finds_nothing() {
    let (_dir, _path, conn) = new_db();
    open_case(&conn, refund_case("conv-1")).unwrap();
    assert_eq!(match_query("\" * - ( )"), None);
    assert_eq!(found(&conn, "* -"), Vec::<i64>::new());
}

#[test]
fn each_typed_word_becomes_a_quoted_prefix_phrase() {
    assert_eq!(match_query("  refund  \"double\" "), Some("\"refund\"* \"\"\"double\"\"\"*".to_string()));
}

#[test]
fn a_search_most_cases_match_pages_in_the_tab_s_order_too() {
    let (_dir, _path, conn) = new_db();
    let tx = conn.unchecked_transaction().unwrap();
    for n in 0..=skillcase_cases::store::FEW_MATCHES {
        open_case(&tx, refund_case(&format!("conv-{n}"))).unwrap();
    }
    tx.commit().unwrap();
    let tab = CaseFilter { tab: Some(CaseTab::WaitingOnYou), offset: 40, limit: 20, ..CaseFilter::default() };
    let searched = CaseFilter { search: Some("refund".into()), ..tab.clone() };
    let numbers = |filter: &CaseFilter| -> Vec<i64> {
        list_cases(&conn, filter).unwrap().items.iter().map(|i| i.case.number).collect()
    };
    assert_eq!(numbers(&searched), (1041..1061).collect::<Vec<i64>>());
    assert_eq!(numbers(&searched), numbers(&tab));
}
