//! Least privilege on a real PostgreSQL, set up as docs/team.md says: the owner runs `team init`
//! and adds people; a member works the inbox under their own name and can do nothing else — no
//! secret read, no delivery edited or forged, no history rewritten, no endpoint moved — and an
//! owner's rewrite of history is found by the chain walk.

use std::time::Duration;

use skillcase_cases::endpoint::EndpointInput;
use skillcase_cases::model::{CaseStatus, EventKind, HumanAction};
use skillcase_cases::{CasesRepository, OutboxRepository};
use skillcase_common::error::Coded;
use skillcase_team::people::{self, NewPerson, Role};
use skillcase_team::{PgCases, TeamUrl};
use skillcase_testkit::postgres::Cluster;

use crate::support::{psql, refund_case};

const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/// A team database owned by a role of its own that may create roles (not a superuser), set up
/// with `team init`, an endpoint, and three people: Ana (member), Bia (admin) and the team's
/// `serve` (delivery).
struct Team {
    owner: TeamUrl,
    ana: TeamUrl,
    bia: TeamUrl,
    serve: TeamUrl,
}

impl Team {
    fn new() -> Team {
        let cluster = Cluster::shared();
        let raw = cluster.fresh_database();
        let database = raw.rsplit('/').next().unwrap().to_string();
        let owner = format!("{database}_owner");
        cluster.psql(
            "postgres",
            &format!("CREATE ROLE {owner} LOGIN CREATEROLE; ALTER DATABASE {database} OWNER TO {owner}"),
        );
        let owner = TeamUrl::parse(&TeamUrl::parse(&raw).unwrap().with_login(&owner, "pw").unwrap()).unwrap();
        people::init(&owner).unwrap();
        let add = |name: &str, login: &str, role| {
            let new = NewPerson {
                name: name.into(),
                email: None,
                login: Some(format!("{database}_{login}")),
                role,
            };
            TeamUrl::parse(&people::add_person(&owner, &new).unwrap().url).unwrap()
        };
        let team = Team {
            ana: add("Ana Lima", "ana", Role::Member),
            bia: add("Bia Costa", "bia", Role::Admin),
            serve: add("Team server", "serve", Role::Delivery),
            owner,
        };
        team.open(&team.bia).set_endpoint(endpoint("https://agent.example.com/hooks")).unwrap();
        team
    }

    fn open(&self, login: &TeamUrl) -> PgCases {
        PgCases::open(login).unwrap()
    }

    /// Runs `sql` as `login`; the server's refusal, if any.
    fn run_as(&self, login: &TeamUrl, sql: &str) -> Result<(), String> {
        let mut client =
            skillcase_team::connect::config(login).unwrap().connect(skillcase_team::connect::tls()).unwrap();
        client
            .batch_execute(sql)
            .map_err(|e| e.as_db_error().map(|db| db.message().to_string()).unwrap_or_default())
    }

    /// A case the agent opened through the team's server; its id.
    fn case(&self, conversation: &str) -> String {
        self.open(&self.serve).open_case(refund_case(conversation)).unwrap().case.id
    }
}

fn endpoint(url: &str) -> EndpointInput {
    EndpointInput {
        url: url.into(),
        secret: Some(SECRET.into()),
        timeout_secs: None,
        max_attempts: None,
        enabled: true,
    }
}

fn refused(result: Result<(), String>) -> String {
    result.expect_err("the database must refuse this")
}

#[test]
fn init_is_safe_to_run_again_and_a_login_that_is_not_the_owner_cannot_run_it() {
    let team = Team::new();
    let again = people::init(&team.owner).unwrap();
    assert_eq!(again.groups.len(), 3);
    assert_eq!(people::init(&team.bia).unwrap_err().code(), "team_not_owner");
    let new = NewPerson {
        name: "Eve".into(),
        email: Some("eve@example.com".into()),
        login: None,
        role: Role::Admin,
    };
    assert_eq!(people::add_person(&team.ana, &new).unwrap_err().code(), "team_not_owner");
}

#[test]
fn a_member_works_a_case_and_the_timeline_names_her_whatever_name_her_desktop_typed() {
    let team = Team::new();
    let id = team.case("conv-1");
    let ana = team.open(&team.ana);
    assert_eq!(ana.person().unwrap().map(|p| (p.name, p.role)), Some(("Ana Lima".into(), Role::Member)));

    ana.add_note(&id, "Checking with finance.", "Bruno").unwrap();
    ana.assign(std::slice::from_ref(&id), Some("Ana Lima"), "Bruno").unwrap();
    let (answered, _) = ana.reply(&id, HumanAction::Resolved, "Refund issued.", "Bruno").unwrap();

    let names: Vec<(EventKind, Option<String>)> = answered
        .events
        .iter()
        .filter(|e| e.actor == skillcase_cases::model::Actor::Human)
        .map(|e| (e.kind, e.actor_name.clone()))
        .collect();
    assert!(!names.is_empty());
    assert!(names.iter().all(|(_, name)| name.as_deref() == Some("Ana Lima")), "{names:?}");
    assert_eq!(answered.case.status, CaseStatus::Resolved);

    let other = team.case("conv-2");
    ana.hold_reply(&other, "Ana Lima").unwrap();
    ana.set_read(&other, true).unwrap();
    let cancelled =
        ana.cancel(&other, skillcase_cases::model::Actor::Human, Some("Bruno"), Some("Spam")).unwrap();
    assert_eq!(cancelled.status, CaseStatus::Cancelled);
}

#[test]
fn a_member_cannot_read_a_signing_secret_but_sees_the_endpoint_without_it() {
    let team = Team::new();
    assert!(
        refused(team.run_as(&team.ana, "SELECT secret FROM agent_endpoint")).contains("permission denied")
    );
    assert!(refused(team.run_as(&team.ana, "SELECT secret FROM agents")).contains("permission denied"));
    let view = team.open(&team.ana).endpoint_view().unwrap().unwrap();
    assert_eq!((view.url.as_str(), view.has_secret), ("https://agent.example.com/hooks", true));
    assert_eq!(team.open(&team.ana).endpoint().unwrap_err().code(), "team_permission_denied");
}

#[test]
fn a_member_cannot_move_the_endpoint_or_change_an_agent() {
    let team = Team::new();
    let ana = team.open(&team.ana);
    let moved = ana.set_endpoint(endpoint("https://attacker.example/hook")).unwrap_err();
    assert_eq!(moved.code(), "team_permission_denied");
    assert!(refused(team.run_as(&team.ana, "UPDATE agent_endpoint SET url = 'https://attacker.example/'"))
        .contains("permission denied"));
    assert_eq!(team.open(&team.bia).endpoint_view().unwrap().unwrap().url, "https://agent.example.com/hooks");
}

#[test]
fn a_member_cannot_edit_a_pending_delivery_nor_get_one_written_beside_a_reply_signed() {
    let team = Team::new();
    let id = team.case("conv-1");
    let (_, delivery) =
        team.open(&team.bia).reply(&id, HumanAction::Resolved, "REFUSED: no refund.", "Bia").unwrap();

    let edit = format!(
        "UPDATE deliveries SET body = replace(body, 'REFUSED', 'APPROVED') WHERE id = '{}'",
        delivery.id
    );
    assert!(refused(team.run_as(&team.ana, &edit)).contains("permission denied"));
    assert!(refused(team.run_as(&team.ana, "DELETE FROM deliveries")).contains("permission denied"));
    let beside = format!(
        "INSERT INTO deliveries (id, case_id, event_seq, action, body, state, next_attempt_at, created_at, updated_at) \
         SELECT 'forged', case_id, event_seq, action, replace(replace(body, 'REFUSED: no refund.', 'APPROVED: R$ 9000'), \
                id, 'forged'), 'pending', next_attempt_at, created_at, updated_at FROM deliveries WHERE id = '{}'",
        delivery.id
    );
    team.run_as(&team.ana, &beside).unwrap();

    let serve = team.open(&team.serve);
    let claimed: Vec<String> =
        std::iter::from_fn(|| serve.claim_next(Duration::from_secs(5)).unwrap()).map(|c| c.id).collect();
    assert_eq!(claimed, [delivery.id.as_str()]);
    assert_eq!(psql(&team.owner, "SELECT state FROM deliveries WHERE id = 'forged'"), "failed");
}

#[test]
fn a_member_cannot_write_a_reminder_the_jobs_alone_send() {
    let team = Team::new();
    let id = team.case("conv-1");
    let reminder = format!(
        "INSERT INTO deliveries (id, case_id, event_seq, action, body, state, next_attempt_at, created_at, updated_at) \
         SELECT 'r1', case_id, seq, 'reminder', '{{}}', 'pending', at, at, at FROM case_events WHERE case_id = '{id}'"
    );
    assert!(refused(team.run_as(&team.ana, &reminder)).contains("a member cannot write a reminder delivery"));
}

#[test]
fn a_member_cannot_update_delete_or_truncate_events_nor_turn_their_guard_off() {
    let team = Team::new();
    team.case("conv-1");
    for attack in [
        "UPDATE case_events SET payload = '{}'",
        "DELETE FROM case_events",
        "TRUNCATE case_events CASCADE",
        "ALTER TABLE case_events DISABLE TRIGGER case_events_no_update",
        "CREATE OR REPLACE FUNCTION case_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$",
        "UPDATE case_chain SET head = ''",
    ] {
        let refusal = refused(team.run_as(&team.ana, attack));
        assert!(refusal.contains("permission denied") || refusal.contains("must be owner"), "{attack}: {refusal}");
    }
}

#[test]
fn a_member_cannot_write_the_agents_side_of_a_case() {
    let team = Team::new();
    let id = team.case("conv-1");
    team.open(&team.bia).reply(&id, HumanAction::NeedLeadInfo, "Which card?", "Bia").unwrap();
    let ana = team.open(&team.ana);
    assert_eq!(
        ana.provide_update(&id, "The Visa, says the customer.").unwrap_err().code(),
        "team_permission_denied"
    );
    let reopened = format!("UPDATE cases SET status = 'awaiting_human' WHERE id = '{id}'");
    team.open(&team.bia).cancel(&id, skillcase_cases::model::Actor::Human, Some("Bia"), None).unwrap();
    assert!(refused(team.run_as(&team.ana, &reopened)).contains("cannot move from cancelled"));
    let summary = format!("UPDATE cases SET summary = 'nothing to see' WHERE id = '{id}'");
    assert!(refused(team.run_as(&team.ana, &summary)).contains("permission denied"));
}

#[test]
fn a_worked_history_verifies_intact_and_an_owners_rewrite_is_found() {
    let team = Team::new();
    let id = team.case("conv-1");
    let bia = team.open(&team.bia);
    bia.add_note(&id, "Finance says no.", "Bia").unwrap();
    let (answered, _) = bia.reply(&id, HumanAction::Resolved, "REFUSED: no refund.", "Bia").unwrap();
    let owner = team.open(&team.owner);
    let intact = owner.verify_chain().unwrap();
    assert_eq!((intact.cases, intact.events, intact.breaks.len()), (1, answered.events.len() as u64, 0));

    let reply = answered.events.iter().find(|e| e.kind == EventKind::HumanReplied).unwrap().seq;
    psql(
        &team.owner,
        &format!(
            "ALTER TABLE case_events DISABLE TRIGGER case_events_no_update; \
             UPDATE case_events SET payload = replace(payload, 'REFUSED', 'APPROVED'), actor_name = 'Ana Lima' \
             WHERE seq = {reply}; \
             ALTER TABLE case_events ENABLE TRIGGER case_events_no_update;"
        ),
    );

    let broken = owner.verify_chain().unwrap();
    assert_eq!(broken.breaks.iter().map(|b| b.seq).collect::<Vec<_>>(), [Some(reply)]);
    let seen_by_ana = team.open(&team.ana).verify_case_chain(&id).unwrap();
    assert_eq!(
        seen_by_ana.iter().map(|b| b.seq).collect::<Vec<_>>(),
        [Some(reply)],
        "the case view warns too"
    );
}

#[test]
fn an_event_the_owner_removed_breaks_the_chain() {
    let team = Team::new();
    let id = team.case("conv-1");
    let bia = team.open(&team.bia);
    let note = bia.add_note(&id, "First look.", "Bia").unwrap();
    bia.add_note(&id, "Second look.", "Bia").unwrap();
    psql(
        &team.owner,
        &format!(
            "ALTER TABLE case_events DISABLE TRIGGER case_events_no_update; \
             DELETE FROM case_events WHERE seq = {}; \
             ALTER TABLE case_events ENABLE TRIGGER case_events_no_update;",
            note.seq
        ),
    );
    let report = team.open(&team.owner).verify_chain().unwrap();
    assert!(!report.breaks.is_empty(), "{report:?}");
}

#[test]
fn notes_written_at_once_by_two_instances_keep_one_chain() {
    let team = Team::new();
    let id = team.case("conv-1");
    std::thread::scope(|scope| {
        for login in [&team.ana, &team.bia] {
            let cases = team.open(login);
            let id = id.clone();
            scope.spawn(move || {
                for n in 0..20 {
                    cases.add_note(&id, &format!("note {n}"), "x").unwrap();
                }
            });
        }
    });
    let report = team.open(&team.owner).verify_chain().unwrap();
    assert_eq!((report.events, report.breaks.len()), (41, 0), "{report:?}");
}

#[test]
fn a_team_database_from_before_roles_gets_its_history_chained_and_verified_when_it_is_opened() {
    let cluster = Cluster::shared();
    let raw = cluster.fresh_database();
    let database = raw.rsplit('/').next().unwrap();
    cluster.psql(database, "CREATE EXTENSION IF NOT EXISTS pg_trgm");
    for migration in [
        include_str!("../../migrations/0001_inbox.sql"),
        include_str!("../../migrations/0002_closed_totals.sql"),
    ] {
        cluster.psql(database, migration);
    }
    cluster.psql(
        database,
        "CREATE TABLE skillcase_schema (version BIGINT NOT NULL); INSERT INTO skillcase_schema VALUES (2); \
         INSERT INTO cases (id, number, conversation_id, status, title, summary, source, opened_at, updated_at) \
           VALUES ('c1', 1001, 'conv-1', 'awaiting_human', 'Refund', 'Charged twice', 'agent', \
                   '2026-12-01T10:00:00.000Z', '2026-12-01T10:00:00.000Z'); \
         INSERT INTO cases (id, number, conversation_id, status, title, summary, source, opened_at, updated_at) \
           VALUES ('c2', 1002, 'conv-2', 'awaiting_human', 'Invoice', 'Wrong address', 'agent', \
                   '2026-12-01T10:01:00.000Z', '2026-12-01T10:01:00.000Z'); \
         INSERT INTO case_events (case_id, kind, actor, at, payload) VALUES \
           ('c1', 'opened', 'agent', '2026-12-01T10:00:00.000Z', '{}'), \
           ('c2', 'opened', 'agent', '2026-12-01T10:01:00.000Z', '{}'), \
           ('c1', 'internal_note', 'human', '2026-12-01T10:05:00.000Z', '{\"text\":\"Looking.\"}'), \
           ('c2', 'internal_note', 'human', '2026-12-01T10:06:00.000Z', '{\"text\":\"Asking.\"}'), \
           ('c2', 'internal_note', 'human', '2026-12-01T10:07:00.000Z', '{\"text\":\"Found it.\"}');",
    );

    let team = PgCases::open(&TeamUrl::parse(&raw).unwrap()).unwrap();

    let report = team.verify_chain().unwrap();
    assert_eq!((report.cases, report.events, report.breaks.len()), (2, 5, 0), "{report:?}");
    team.add_note("c1", "Still looking.", "Ana").unwrap();
    assert_eq!(team.verify_chain().unwrap().breaks.len(), 0);
}

#[test]
fn what_one_person_opened_stays_unread_for_another() {
    let team = Team::new();
    let first = team.case("conv-1");
    team.case("conv-2");
    let (ana, bia) = (team.open(&team.ana), team.open(&team.bia));
    let unread = |cases: &PgCases| {
        let page = cases.list_cases(&skillcase_cases::store::CaseFilter::default()).unwrap();
        let marks: Vec<bool> = page.items.iter().map(|item| item.unread).collect();
        (page.counts.unread, marks)
    };
    assert_eq!(unread(&ana), (2, vec![true, true]));

    ana.set_read(&first, true).unwrap();

    assert_eq!(unread(&ana).0, 1);
    assert_eq!(unread(&bia), (2, vec![true, true]), "Bia has opened nothing");
    bia.set_read(&first, true).unwrap();
    ana.set_read(&first, false).unwrap();
    assert_eq!((unread(&ana).0, unread(&bia).0), (2, 1));
}

#[test]
fn a_case_whose_every_event_the_owner_removed_is_a_break() {
    let team = Team::new();
    let id = team.case("conv-1");
    team.case("conv-2");
    psql(
        &team.owner,
        &format!(
            "ALTER TABLE case_events DISABLE TRIGGER case_events_no_update; \
             DELETE FROM case_events WHERE case_id = '{id}'; \
             ALTER TABLE case_events ENABLE TRIGGER case_events_no_update;"
        ),
    );
    let report = team.open(&team.owner).verify_chain().unwrap();
    let found: Vec<(&str, &str)> =
        report.breaks.iter().map(|b| (b.case_id.as_str(), b.problem.as_str())).collect();
    assert_eq!(found, [(id.as_str(), "every event of the case was removed")]);
    assert_eq!((report.cases, report.events), (2, 1));
}

#[test]
fn a_member_cannot_change_a_case_without_its_event_on_the_record() {
    let team = Team::new();
    let id = team.case("conv-1");
    team.open(&team.bia)
        .record_promise(
            &id,
            &skillcase_cases::promises::NewPromise {
                quote: "We will call you tomorrow.".into(),
                actor: None,
                action: Some("call".into()),
                due_text: Some("tomorrow".into()),
                due_at: Some("2026-12-02T12:00:00.000Z".into()),
                turn_id: "turn-1".into(),
                spans: vec![],
            },
        )
        .unwrap();
    for silent in [
        format!("UPDATE cases SET promise_quote = NULL, promise_due_at = NULL WHERE id = '{id}'"),
        format!("UPDATE cases SET first_reply_at = '2026-12-01T00:00:00.000Z' WHERE id = '{id}'"),
        format!("UPDATE cases SET assignee = 'Ana Lima' WHERE id = '{id}'"),
    ] {
        assert!(refused(team.run_as(&team.ana, &silent)).contains("must come with its event"), "{silent}");
    }
    let owed = psql(&team.owner, &format!("SELECT promise_quote FROM cases WHERE id = '{id}'"));
    assert_eq!(owed, "We will call you tomorrow.");
}

#[test]
fn a_member_marks_the_guardrail_s_messages_but_only_an_admin_changes_its_model() {
    use skillcase_cases::marks::{MarkSource, NewMark};
    use skillcase_cases::GuardRepository;
    let team = Team::new();
    let ana = team.open(&team.ana);
    let mark = NewMark {
        text: "O estorno constará em fatura em até 3 dias úteis.".into(),
        promise: false,
        source: MarkSource::Veto,
        conversation_id: None,
    };
    let stored = ana.add_mark(&mark, "Ana Lima").unwrap();
    assert_eq!(team.open(&team.bia).marks().unwrap(), vec![stored.clone()]);

    let model = skillcase_guard::model().clone();
    let report = skillcase_guard::retrain::retrain(&model, &[]).report;
    assert_eq!(ana.adopt_model(&model, &report, "Ana Lima").unwrap_err().code(), "team_permission_denied");
    assert!(ana.adopted_model().unwrap().is_none());
    team.open(&team.bia).adopt_model(&model, &report, "Bia Costa").unwrap();
    assert_eq!(ana.adopted_model().unwrap().unwrap().adopted_by, "Bia Costa");
    ana.remove_mark(stored.id).unwrap();
}
