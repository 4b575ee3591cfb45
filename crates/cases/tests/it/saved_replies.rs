//! Saved replies (a desktop's own, on the embedded database only): the save-time check, the one
//! rendering function, the picker's matching, the table, and the JSON file Settings imports and
//! exports.

use serde_json::json;
use skillcase_cases::model::{HumanAction, Lead};
use skillcase_cases::replies::pick::PickFilter;
use skillcase_cases::replies::template::{render, Person};
use skillcase_cases::replies::{file, ReplyLanguage, SavedReplyInput};
use skillcase_cases::{CasesRepository, SavedRepliesRepository};
use skillcase_cases_sqlite::SqliteCases;
use skillcase_common::error::Coded;
use skillcase_common::ErrorBody;

use crate::support::{refund_case, Db};

fn input(title: &str, body: &str) -> SavedReplyInput {
    SavedReplyInput { title: title.into(), body: body.into(), action: None, language: None }
}

fn ana() -> Person {
    Person { name: "Ana Lima".into(), email: "ana@example.com".into() }
}

fn filter(action: Option<HumanAction>, language: ReplyLanguage, query: &str) -> PickFilter {
    PickFilter { action, language, query: query.into() }
}

fn titles(replies: &SqliteCases, f: &PickFilter) -> Vec<String> {
    replies.pick(f).unwrap().into_iter().map(|r| r.title).collect()
}

// Rendering

#[test]
fn every_variable_renders_from_the_case_and_the_person() {
    let db = &Db::sqlite();
    let case = db.open_case(refund_case("conv-1")).unwrap().case;
    let body = "{{lead.name}}|{{lead.contact}}|{{lead.channel}}|{{case.number}}|{{case.title}}|\
                {{case.summary}}|{{case.blocker}}|{{person.name}}|{{person.email}}";
    let expected = format!(
        "Maria Souza|+55 11 91234-5678|whatsapp|{}|Refund for a double charge|\
         The lead was charged twice for order 5512 and wants one charge refunded.|\
         Refunds need a person's approval.|Ana Lima|ana@example.com",
        case.number
    );
    assert_eq!(render(body, &case, &ana()), expected);
}

#[test]
fn a_variable_whose_value_is_missing_renders_empty() {
    let db = &Db::sqlite();
    let mut new = refund_case("conv-1");
    new.lead = Lead::default();
    let case = db.open_case(new).unwrap().case;
    assert_eq!(
        render("Hello {{lead.name}}, case {{ case.number }}.", &case, &Person::default()),
        format!("Hello , case {}.", case.number)
    );
}

#[test]
fn text_around_variables_and_unclosed_braces_is_kept_as_written() {
    let db = &Db::sqlite();
    let case = db.open_case(refund_case("conv-1")).unwrap().case;
    assert_eq!(render("Olá {{lead.name}} — {{ sem fim", &case, &ana()), "Olá Maria Souza — {{ sem fim");
}

// Validation

#[test]
fn a_blank_title_is_refused_naming_the_field() {
    let err = input("   ", "Thanks!").checked().unwrap_err();
    assert_eq!(err.code(), "invalid_saved_reply");
    assert_eq!(err.details(), Some(json!({ "field": "title" })));
}

#[test]
fn a_blank_body_is_refused_naming_the_field() {
    let err = input("Thanks", "\n ").checked().unwrap_err();
    assert_eq!(err.code(), "invalid_saved_reply");
    assert_eq!(err.details(), Some(json!({ "field": "body" })));
}

#[test]
fn an_unknown_variable_is_refused_with_its_name() {
    let err = input("Thanks", "Hi {{lead.nmae}}, thanks!").checked().unwrap_err();
    assert_eq!(
        serde_json::to_value(ErrorBody::from(err)).unwrap()["details"],
        json!({ "field": "body", "variable": "lead.nmae" })
    );
}

#[test]
fn title_and_body_are_saved_trimmed() {
    let checked = input("  Thanks  ", "\n Hi {{lead.name}}! \n").checked().unwrap();
    assert_eq!((checked.title.as_str(), checked.body.as_str()), ("Thanks", "Hi {{lead.name}}!"));
}

// Storage

#[test]
fn a_created_reply_is_listed_with_its_action_and_language() {
    let db = &Db::sqlite();
    let replies = db.sqlite_cases().unwrap();
    let new = SavedReplyInput {
        action: Some(HumanAction::Resolved),
        language: Some(ReplyLanguage::PtBr),
        ..input("Reembolso feito", "Feito, {{lead.name}}.")
    };
    let saved = replies.create(new).unwrap();
    assert_eq!(replies.list().unwrap(), vec![saved.clone()]);
    assert_eq!((saved.action, saved.language), (Some(HumanAction::Resolved), Some(ReplyLanguage::PtBr)));
}

#[test]
fn a_refused_create_stores_nothing() {
    let db = &Db::sqlite();
    let replies = db.sqlite_cases().unwrap();
    replies.create(input("Bad", "{{nope}}")).unwrap_err();
    assert!(replies.list().unwrap().is_empty());
}

#[test]
fn an_update_replaces_title_body_action_and_language() {
    let db = &Db::sqlite();
    let replies = db.sqlite_cases().unwrap();
    let saved = replies.create(input("Thanks", "Thanks!")).unwrap();
    let change = SavedReplyInput {
        action: Some(HumanAction::Escalate),
        language: Some(ReplyLanguage::En),
        ..input("Passing on", "A colleague will follow up.")
    };
    let updated = replies.update(&saved.id, change).unwrap();
    assert_eq!(updated.id, saved.id);
    assert_eq!(
        (updated.title.as_str(), updated.body.as_str()),
        ("Passing on", "A colleague will follow up.")
    );
    assert_eq!((updated.action, updated.language), (Some(HumanAction::Escalate), Some(ReplyLanguage::En)));
}

#[test]
fn updating_or_deleting_a_missing_reply_is_saved_reply_not_found() {
    let db = &Db::sqlite();
    let replies = db.sqlite_cases().unwrap();
    assert_eq!(replies.update("nope", input("a", "b")).unwrap_err().code(), "saved_reply_not_found");
    assert_eq!(replies.delete("nope").unwrap_err().code(), "saved_reply_not_found");
}

#[test]
fn a_deleted_reply_is_gone() {
    let db = &Db::sqlite();
    let replies = db.sqlite_cases().unwrap();
    let saved = replies.create(input("Thanks", "Thanks!")).unwrap();
    replies.delete(&saved.id).unwrap();
    assert!(replies.list().unwrap().is_empty());
}

// Picking

#[test]
fn the_query_matches_title_or_body_without_case_or_accents() {
    let db = &Db::sqlite();
    let replies = db.sqlite_cases().unwrap();
    replies.create(input("Reembolso aprovado", "O estorno cai em até 5 dias.")).unwrap();
    replies.create(input("Pedido de informação", "Qual cartão foi cobrado?")).unwrap();
    assert_eq!(titles(replies, &filter(None, ReplyLanguage::PtBr, "CARTAO")), ["Pedido de informação"]);
    assert_eq!(titles(replies, &filter(None, ReplyLanguage::PtBr, "informacao")), ["Pedido de informação"]);
    assert_eq!(titles(replies, &filter(None, ReplyLanguage::PtBr, "estorno dias")), ["Reembolso aprovado"]);
}

#[test]
fn only_replies_for_the_chosen_action_or_for_all_are_offered() {
    let db = &Db::sqlite();
    let replies = db.sqlite_cases().unwrap();
    let for_action = |title: &str, action| SavedReplyInput { action, ..input(title, "text") };
    replies.create(for_action("Any", None)).unwrap();
    replies.create(for_action("Done", Some(HumanAction::Resolved))).unwrap();
    replies.create(for_action("Ask", Some(HumanAction::NeedLeadInfo))).unwrap();
    assert_eq!(titles(replies, &filter(Some(HumanAction::Resolved), ReplyLanguage::En, "")), ["Any", "Done"]);
}

#[test]
fn only_replies_in_the_ui_language_or_in_both_are_offered() {
    let db = &Db::sqlite();
    let replies = db.sqlite_cases().unwrap();
    let in_language = |title: &str, language| SavedReplyInput { language, ..input(title, "text") };
    replies.create(in_language("Both", None)).unwrap();
    replies.create(in_language("English", Some(ReplyLanguage::En))).unwrap();
    replies.create(in_language("Português", Some(ReplyLanguage::PtBr))).unwrap();
    assert_eq!(titles(replies, &filter(None, ReplyLanguage::PtBr, "")), ["Both", "Português"]);
}

#[test]
fn titles_starting_with_the_query_come_before_other_matches() {
    let db = &Db::sqlite();
    let replies = db.sqlite_cases().unwrap();
    replies.create(input("About a refund", "text")).unwrap();
    replies.create(input("Card question", "ask about the refund")).unwrap();
    replies.create(input("Refund done", "text")).unwrap();
    assert_eq!(
        titles(replies, &filter(None, ReplyLanguage::En, "refund")),
        ["Refund done", "About a refund", "Card question"]
    );
}

// The file

#[test]
fn an_export_imports_back_into_the_same_replies() {
    let db = &Db::sqlite();
    let replies = db.sqlite_cases().unwrap();
    let first = SavedReplyInput {
        action: Some(HumanAction::NeedLeadInfo),
        language: Some(ReplyLanguage::En),
        ..input("Which card?", "Which card was charged, {{lead.name}}?")
    };
    replies.create(first.clone()).unwrap();
    replies.create(input("Thanks", "Thanks!")).unwrap();
    let text = file::export(&replies.list().unwrap());
    assert_eq!(file::parse(&text).unwrap(), vec![input("Thanks", "Thanks!"), first], "by title");
}

#[test]
fn the_export_names_its_format_and_version() {
    let text = file::export(&[]);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value, json!({ "format": "skillcase-saved-replies", "version": 1, "replies": [] }));
}

#[test]
fn a_bad_entry_refuses_the_file_naming_the_entry() {
    let text = json!({ "format": "skillcase-saved-replies", "version": 1, "replies": [
        { "title": "Fine", "body": "ok" },
        { "title": "Broken", "body": "Hi {{lead.nam}}" },
    ]})
    .to_string();
    let err = file::parse(&text).unwrap_err();
    assert_eq!(err.code(), "invalid_saved_replies_file");
    assert_eq!(err.details(), Some(json!({ "entry": 2 })));
    assert!(err.to_string().contains("lead.nam"), "{err}");
}

#[test]
fn a_file_of_another_format_is_refused() {
    let err = file::parse(r#"{"format":"something-else","version":1,"replies":[]}"#).unwrap_err();
    assert_eq!(err.code(), "invalid_saved_replies_file");
    assert_eq!(err.details(), Some(json!({ "entry": null })));
}

#[test]
fn a_title_twice_in_one_file_is_refused() {
    let text = json!({ "format": "skillcase-saved-replies", "version": 1, "replies": [
        { "title": "Thanks", "body": "a" }, { "title": "thanks", "body": "b" },
    ]})
    .to_string();
    assert_eq!(file::parse(&text).unwrap_err().details(), Some(json!({ "entry": 2 })));
}

#[test]
fn an_import_replaces_replies_with_the_same_title_and_adds_the_rest() {
    let db = &Db::sqlite();
    let replies = db.sqlite_cases().unwrap();
    let kept = replies.create(input("Thanks", "Old text")).unwrap();
    let outcome = replies.import(vec![input("thanks", "New text"), input("Welcome", "Hi!")]).unwrap();
    assert_eq!((outcome.added, outcome.replaced), (1, 1));
    let listed = replies.list().unwrap();
    assert_eq!(
        listed.iter().map(|r| (r.title.as_str(), r.body.as_str())).collect::<Vec<_>>(),
        [("thanks", "New text"), ("Welcome", "Hi!")]
    );
    assert_eq!(listed[0].id, kept.id);
}
