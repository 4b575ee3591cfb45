//! Matching and activation through the library (SPEC A7): recorded rows, the per-conversation
//! active set that level-3 reads need (SPEC A6), and the per-day counts the UI charts.

use crate::support;

use skillcase_common::error::Coded;
use skillcase_testkit::skills::{skill_md, write_skill};
use support::Workspace;

fn frete(ws: &Workspace) {
    write_skill(
        &ws.skills(),
        "frete",
        &[
            ("SKILL.md", &skill_md("frete", "Calcula o frete")),
            ("skill.config.yaml", "matcher:\n  any_keywords: [frete]\n  probe_keywords: [envio]\n"),
            ("references/prazos.md", "Sudeste: 3 dias.\n"),
        ],
    );
}

fn count_rows(ws: &Workspace, sql: &str) -> i64 {
    let conn = skillcase_store::db::open(&ws.options().db_path).unwrap();
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

#[test]
fn a_match_records_one_row_per_hard_match_and_per_probe_with_the_live_version() {
    let ws = Workspace::new();
    frete(&ws);
    let library = ws.open();
    let hard = library.match_message("c1", "Quanto é o Frete?").unwrap();
    assert_eq!(hard.hard[0].name, "frete");
    let probe = library.match_message("c1", "e o envio?").unwrap();
    assert_eq!((probe.hard.len(), probe.probe[0].name.as_str()), (0, "frete"));
    let version = library.summary("frete").unwrap().live_version.unwrap();
    let rows = count_rows(
        &ws,
        &format!("SELECT count(*) FROM activations WHERE skill = 'frete' AND version_id = {version} AND conversation_id = 'c1'"),
    );
    assert_eq!(rows, 2);
    let today = library.activity("frete", 1).unwrap();
    assert_eq!((today[0].hard, today[0].probe), (1, 1));
}

#[test]
fn trying_a_message_records_nothing() {
    let ws = Workspace::new();
    frete(&ws);
    let library = ws.open();
    assert_eq!(library.try_message("frete para o sul").hard[0].keyword, "frete");
    assert_eq!(count_rows(&ws, "SELECT count(*) FROM activations"), 0);
    assert!(!library.is_active("c1", "frete").unwrap());
}

#[test]
fn only_a_hard_match_makes_a_skill_active_and_the_active_set_survives_a_restart() {
    let ws = Workspace::new();
    frete(&ws);
    let library = ws.open();
    library.match_message("c1", "envio").unwrap();
    assert_eq!(library.require_active("c1", "frete").unwrap_err().code(), "skill_not_active");
    library.match_message("c1", "frete").unwrap();
    drop(library);
    let reopened = ws.open();
    assert!(reopened.is_active("c1", "frete").unwrap());
    assert!(!reopened.is_active("c2", "frete").unwrap());
    assert_eq!(reopened.level3("frete", "references/prazos.md").unwrap(), "Sudeste: 3 dias.\n");
}

#[test]
fn activity_lists_every_day_of_the_window_oldest_first() {
    let ws = Workspace::new();
    frete(&ws);
    let library = ws.open();
    library.match_message("c1", "frete").unwrap();
    let week = library.activity("frete", 7).unwrap();
    assert_eq!(week.len(), 7);
    assert!(week.windows(2).all(|w| w[0].day < w[1].day));
    assert_eq!(week[..6].iter().map(|d| d.hard + d.probe).sum::<u32>(), 0);
    assert_eq!(week[6].hard, 1);
}

#[test]
fn an_invalid_skill_is_never_matched_or_served() {
    let ws = Workspace::new();
    write_skill(
        &ws.skills(),
        "frete",
        &[
            ("SKILL.md", "---\nname: frete\n---\n"),
            ("skill.config.yaml", "matcher:\n  any_keywords: [frete]\n"),
        ],
    );
    let library = ws.open();
    assert!(library.try_message("frete").hard.is_empty());
    assert_eq!(library.level2("frete", None).unwrap_err().code(), "skill_invalid");
}
