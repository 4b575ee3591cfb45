//! The `before-send` decision (SPEC B5): may the agent send this message?
//!
//! A message that promises a human follow-up is vetoed while its conversation has no open case,
//! with a teaching message telling the agent what to do. The second veto in the same turn opens
//! a case itself (source `guardrail_autofallback`) and passes, so no promise goes out without a
//! case and the agent is never stuck. Veto counts live in `guard_vetoes`, one row per
//! `(conversation_id, turn_id)`, so they survive a restart between the agent's two attempts.
//!
//! A promise that passes — its conversation has an open case, or the guardrail just opened one —
//! goes on that case's promise ledger ([`crate::promises`]): the promise as written, who and what
//! from the detector's spans, and its due time resolved in the workspace's business calendar.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::model::{Case, CaseSource, ContextMessage, Lead, NewCase};
use crate::reason::HandoverReason;
use crate::repository::{CasesRepository, Veto, VetoCount};
use crate::CasesError;
use skillcase_common::error::Coded;
use skillcase_guard::due::{due_near, Calendar};
use skillcase_guard::{detect, Detection, Language, Span, SpanRole};

use crate::promises::NewPromise;

/// What the agent sends to the guardrail: the message it is about to send, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct BeforeSend {
    pub conversation_id: String,
    /// The agent's turn: every attempt at the same reply shares it.
    pub turn_id: String,
    pub message: String,
    /// The agent sending it: its guardrail switch applies, and a case the guardrail opens
    /// carries it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub agent_id: Option<String>,
}

/// Whether the guardrail looked at the message: a person can switch it off per agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export, rename = "GuardrailState")]
pub enum GuardrailState {
    #[default]
    Enabled,
    /// Switched off for this agent in Settings: the message passes unread.
    Disabled,
}

/// Send it or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export, rename = "GuardVerdictKind")]
pub enum VerdictKind {
    Pass,
    Veto,
}

/// A case the verdict relies on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardCaseRef")]
pub struct CaseRef {
    pub id: String,
    /// The short number people use (`#1042`).
    pub number: i64,
}

impl From<&Case> for CaseRef {
    fn from(case: &Case) -> Self {
        CaseRef { id: case.id.clone(), number: case.number }
    }
}

/// The guardrail's answer: `{"verdict": "pass" | "veto", ...}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardVerdict")]
pub struct Verdict {
    pub verdict: VerdictKind,
    /// What the agent should know: the teaching message on a veto, which case covers the promise
    /// on a pass that had one; absent when the message promised nothing.
    pub reason: Option<String>,
    /// The detector rule that found the promise.
    pub rule: Option<String>,
    /// The sentence that makes the promise, as the agent wrote it.
    pub evidence: Option<String>,
    /// What decided it: who will act, what makes it later and what they will do, with their
    /// character offsets in the message.
    pub spans: Vec<Span>,
    /// Promises vetoed so far in this turn (including this one when it is vetoed).
    pub vetoes_in_turn: i64,
    /// The conversation's open case covering the promise, when there is one.
    pub open_case: Option<CaseRef>,
    /// The case the guardrail opened just now (second veto in the turn).
    pub auto_opened_case: Option<CaseRef>,
    /// `disabled` when the guardrail is switched off for the agent and the message passed unread.
    #[serde(default)]
    pub guardrail: GuardrailState,
}

/// The teaching message of a veto (SPEC B5), word for word; the verdict's reason adds the
/// promise it quotes.
pub const VETO_MESSAGE: &str =
    "you promised a human follow-up without opening a case: open one, or rephrase without the promise";

/// The longest conversation or turn id accepted, in characters (as for cases).
pub const MAX_ID_CHARS: usize = 200;

/// Why a before-send request was refused.
#[derive(Debug, thiserror::Error)]
pub enum GuardError {
    #[error("{field} {reason}")]
    InvalidInput { field: &'static str, reason: String },
    #[error(transparent)]
    Cases(#[from] CasesError),
    #[error("database error: {0}")]
    Db(#[from] rusqlite::Error),
    #[error(transparent)]
    Store(#[from] skillcase_store::DbError),
}

impl Coded for GuardError {
    fn code(&self) -> &'static str {
        match self {
            GuardError::InvalidInput { .. } => "invalid_input",
            GuardError::Cases(inner) => inner.code(),
            GuardError::Db(_) => "db_error",
            GuardError::Store(inner) => inner.code(),
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        match self {
            GuardError::InvalidInput { field, .. } => Some(serde_json::json!({ "field": field })),
            GuardError::Cases(inner) => inner.details(),
            GuardError::Db(_) | GuardError::Store(_) => None,
        }
    }
}

/// Decides whether the agent may send `req.message` (SPEC B5); see the module doc. `calendar`
/// gives the workspace's business calendar, in which a promise's due time is resolved; it is
/// asked for only when a promise passes.
pub fn before_send(
    cases: &dyn CasesRepository,
    req: BeforeSend,
    calendar: &dyn Fn() -> Calendar,
) -> Result<Verdict, GuardError> {
    let req = checked(req)?;
    if !cases.agent_switches(req.agent_id.as_deref())?.guardrail_enabled {
        return Ok(unchecked(req.agent_id.as_deref().unwrap_or_default()));
    }
    let found = detect(&req.message);
    if !found.promise {
        return Ok(verdict(VerdictKind::Pass, None, &found, 0));
    }
    let veto = Veto {
        conversation_id: req.conversation_id.clone(),
        turn_id: req.turn_id.clone(),
        rule: found.rule.clone(),
        evidence: found.evidence.clone(),
    };
    let vetoes = match cases.record_veto(&veto)? {
        VetoCount::Covered(case) => {
            cases.record_promise(&case.id, &promise_of(&req, &found, &calendar()))?;
            let reason = format!("the conversation has open case #{}, which covers the promise", case.number);
            let mut out = verdict(VerdictKind::Pass, Some(reason), &found, 0);
            out.open_case = Some(CaseRef::from(case.as_ref()));
            return Ok(out);
        }
        VetoCount::Vetoes(n) => n,
    };
    if vetoes < 2 {
        return Ok(verdict(VerdictKind::Veto, Some(teaching(&found)), &found, vetoes));
    }
    let opened = match cases.open_case(fallback_case(&req, &found)) {
        Err(CasesError::AgentCasesDisabled { .. }) => {
            let reason = format!(
                "{}; cases are switched off for this agent, so rephrase without it",
                teaching(&found)
            );
            return Ok(verdict(VerdictKind::Veto, Some(reason), &found, vetoes));
        }
        opened => opened?,
    };
    cases.record_promise(&opened.case.id, &promise_of(&req, &found, &calendar()))?;
    let case = CaseRef::from(&opened.case);
    let mut out = verdict(VerdictKind::Pass, None, &found, vetoes);
    if opened.already_open {
        out.reason =
            Some(format!("the conversation has open case #{}, which covers the promise", case.number));
    } else {
        cases.note_auto_case(&req.conversation_id, &req.turn_id, &case.id)?;
        out.reason = Some(format!(
            "second veto in this turn: case #{} was opened automatically, so the promise is covered; send the message",
            case.number
        ));
        out.auto_opened_case = Some(case.clone());
    }
    out.open_case = Some(case);
    Ok(out)
}

/// The veto's teaching message, quoting the promise.
fn teaching(found: &Detection) -> String {
    match &found.evidence {
        Some(quote) => format!("{VETO_MESSAGE} (the promise: \"{quote}\")"),
        None => VETO_MESSAGE.to_string(),
    }
}

/// The ledger entry of a promise: its sentence, who and what from the spans, and when it is due.
fn promise_of(req: &BeforeSend, found: &Detection, calendar: &Calendar) -> NewPromise {
    let quote = found.evidence.clone().unwrap_or_else(|| req.message.trim().to_string());
    let role = |wanted: SpanRole| -> Option<String> {
        let parts: Vec<&str> =
            found.spans.iter().filter(|s| s.role == wanted).map(|s| s.text.as_str()).collect();
        (!parts.is_empty()).then(|| parts.join(" "))
    };
    let now = jiff::ZonedDateTime::now().with_time_zone(calendar.time_zone().clone());
    let due = due_near(&req.message, &quote, &now, calendar);
    NewPromise {
        spans: spans_in_quote(&req.message, &quote, &found.spans),
        actor: found.spans.iter().find(|s| s.role == SpanRole::Actor).map(|s| s.text.clone()),
        action: role(SpanRole::Action),
        due_text: due.as_ref().map(|d| d.expression.text.clone()),
        due_at: due.map(|d| stamp(&d.at)),
        turn_id: req.turn_id.clone(),
        quote,
    }
}

/// The spans that lie inside `quote`, with offsets counted from the quote's first character.
fn spans_in_quote(message: &str, quote: &str, spans: &[Span]) -> Vec<Span> {
    let Some(byte) = message.find(quote) else { return Vec::new() };
    let start = message[..byte].chars().count();
    let end = start + quote.chars().count();
    spans
        .iter()
        .filter(|s| s.start >= start && s.end <= end)
        .map(|s| Span { start: s.start - start, end: s.end - start, ..s.clone() })
        .collect()
}

/// A due time as every stored timestamp is written (RFC 3339 UTC, milliseconds).
pub(crate) fn stamp(at: &jiff::ZonedDateTime) -> String {
    let nanos = i128::from(at.timestamp().as_millisecond()) * 1_000_000;
    let utc =
        time::OffsetDateTime::from_unix_timestamp_nanos(nanos).unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    crate::clock::format(utc)
}

/// The pass of a message the guardrail did not read: it is switched off for `agent_id`.
fn unchecked(agent_id: &str) -> Verdict {
    Verdict {
        verdict: VerdictKind::Pass,
        reason: Some(format!(
            "the guardrail is switched off for agent {agent_id:?} in Settings; the message was not checked"
        )),
        rule: None,
        evidence: None,
        spans: Vec::new(),
        vetoes_in_turn: 0,
        open_case: None,
        auto_opened_case: None,
        guardrail: GuardrailState::Disabled,
    }
}

fn verdict(kind: VerdictKind, reason: Option<String>, found: &Detection, vetoes: i64) -> Verdict {
    Verdict {
        verdict: kind,
        reason,
        rule: found.rule.clone(),
        evidence: found.evidence.clone(),
        spans: found.spans.clone(),
        vetoes_in_turn: vetoes,
        open_case: None,
        auto_opened_case: None,
        guardrail: GuardrailState::Enabled,
    }
}

fn checked(mut req: BeforeSend) -> Result<BeforeSend, GuardError> {
    for (field, value) in [("conversation_id", &mut req.conversation_id), ("turn_id", &mut req.turn_id)] {
        let trimmed = value.trim();
        if trimmed.is_empty() {
            return Err(GuardError::InvalidInput {
                field,
                reason: "is required and must not be blank".into(),
            });
        }
        let chars = trimmed.chars().count();
        if chars > MAX_ID_CHARS {
            return Err(GuardError::InvalidInput {
                field,
                reason: format!("is {chars} characters long; at most {MAX_ID_CHARS} are allowed"),
            });
        }
        *value = trimmed.to_string();
    }
    Ok(req)
}

/// The case the guardrail opens on the second veto: title from the promising sentence, summary
/// saying why it exists and quoting the message, in the message's language.
fn fallback_case(req: &BeforeSend, found: &Detection) -> NewCase {
    let evidence = found.evidence.as_deref().unwrap_or_default();
    let sentence = clip(promising_sentence(&req.message, evidence), 160);
    let message = clip(req.message.trim(), 4000);
    let (title, summary, blocker) = match found.language {
        Language::PtBr => (
            format!("Retorno prometido: {sentence}"),
            format!(
                "Aberto automaticamente pela proteção contra promessas: o agente prometeu um retorno humano duas vezes \
                 no turno {} sem abrir um caso. Mensagem do agente:\n\n{message}",
                req.turn_id
            ),
            format!("O agente prometeu que uma pessoa daria retorno (\"{evidence}\"); alguém precisa cumprir."),
        ),
        _ => (
            format!("Follow-up promised: {sentence}"),
            format!(
                "Opened automatically by the guardrail: the agent promised a human follow-up twice in turn {} \
                 without opening a case. The agent's message:\n\n{message}",
                req.turn_id
            ),
            format!("The agent promised that a person would follow up (\"{evidence}\"); someone has to."),
        ),
    };
    NewCase {
        conversation_id: req.conversation_id.clone(),
        lead: Lead::default(),
        agent_id: req.agent_id.clone(),
        title: clip(&title, 200),
        summary,
        blocker: Some(blocker),
        context: vec![ContextMessage { role: "agent".into(), text: message, at: None }],
        source: CaseSource::GuardrailAutofallback,
        reason: HandoverReason::GuardrailAutofallback,
    }
}

/// The sentence of `message` holding `evidence` (the whole message when it cannot be found).
fn promising_sentence<'a>(message: &'a str, evidence: &str) -> &'a str {
    let Some(at) = message.find(evidence).filter(|_| !evidence.is_empty()) else {
        return message.trim();
    };
    let ends = |c: char| matches!(c, '.' | '!' | '?' | '\n');
    let start = message[..at].rfind(ends).map_or(0, |i| i + 1);
    let end = message[at..].find(ends).map_or(message.len(), |i| at + i + 1);
    message[start..end].trim()
}

/// At most `max` characters, with an ellipsis when cut.
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max - 1).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CaseStatus;
    use crate::SqliteCases;
    use skillcase_store::{db, Database};

    const PROMISE: &str = "Vou verificar com a equipe financeira e te retorno ainda hoje.";

    /// Monday to Friday, 09:00–18:00, in São Paulo.
    fn calendar() -> Calendar {
        Calendar::named("America/Sao_Paulo").unwrap()
    }

    fn database() -> (tempfile::TempDir, SqliteCases) {
        let dir = tempfile::tempdir().unwrap();
        let cases = SqliteCases::new(Database::open(&dir.path().join(db::DATABASE_FILE)).unwrap());
        (dir, cases)
    }

    fn count_cases(cases: &SqliteCases) -> i64 {
        cases
            .database()
            .read(|c| c.query_row("SELECT count(*) FROM cases", [], |r| r.get(0)).map_err(CasesError::from))
            .unwrap()
    }

    fn open_case_of(cases: &SqliteCases, conversation: &str) -> Option<Case> {
        cases.database().read(|c| crate::store::open_case_for_conversation(c, conversation)).unwrap()
    }

    fn ask(cases: &SqliteCases, conversation: &str, turn: &str, message: &str) -> Verdict {
        let req = BeforeSend {
            conversation_id: conversation.into(),
            turn_id: turn.into(),
            message: message.into(),
            agent_id: None,
        };
        before_send(cases, req, &calendar).unwrap()
    }

    fn open_by_agent(cases: &SqliteCases, conversation: &str) -> Case {
        let new = NewCase {
            conversation_id: conversation.into(),
            lead: Lead::default(),
            agent_id: None,
            title: "Estorno".into(),
            summary: "Cliente pede estorno".into(),
            blocker: None,
            context: vec![],
            source: CaseSource::Agent,
            reason: HandoverReason::PolicyRestriction,
        };
        cases.open_case(new).unwrap().case
    }

    #[test]
    fn a_message_without_a_promise_passes_and_counts_nothing() {
        let (_dir, cases) = database();
        let verdict = ask(&cases, "c1", "t1", "Vou te mandar o link do rastreio.");
        assert_eq!(verdict.verdict, VerdictKind::Pass);
        assert_eq!((verdict.reason, verdict.evidence, verdict.vetoes_in_turn), (None, None, 0));
        assert_eq!(cases.vetoes_in_turn("c1", "t1").unwrap(), 0);
    }

    #[test]
    fn a_promise_without_an_open_case_is_vetoed_with_the_teaching_message() {
        let (_dir, cases) = database();
        let verdict = ask(&cases, "c1", "t1", PROMISE);
        assert_eq!(verdict.verdict, VerdictKind::Veto);
        assert_eq!(
            verdict.reason.as_deref(),
            Some(
                "you promised a human follow-up without opening a case: open one, or rephrase without the promise \
                 (the promise: \"Vou verificar com a equipe financeira e te retorno ainda hoje.\")"
            )
        );
        assert_eq!(
            verdict.evidence.as_deref(),
            Some("Vou verificar com a equipe financeira e te retorno ainda hoje.")
        );
        assert!(verdict.spans.iter().any(|s| s.role == SpanRole::Action), "{:?}", verdict.spans);
        assert_eq!(verdict.vetoes_in_turn, 1);
        assert_eq!((verdict.open_case, verdict.auto_opened_case), (None, None));
        assert_eq!(open_case_of(&cases, "c1"), None);
    }

    #[test]
    fn a_promise_in_a_conversation_with_an_open_case_passes_and_names_the_case() {
        let (_dir, cases) = database();
        let case = open_by_agent(&cases, "c1");
        let verdict = ask(&cases, "c1", "t1", PROMISE);
        assert_eq!(verdict.verdict, VerdictKind::Pass);
        assert_eq!(verdict.open_case, Some(CaseRef { id: case.id, number: case.number }));
        assert_eq!(verdict.auto_opened_case, None);
        assert_eq!(cases.vetoes_in_turn("c1", "t1").unwrap(), 0);
    }

    #[test]
    fn the_second_veto_in_a_turn_opens_a_guardrail_case_and_passes() {
        let (_dir, cases) = database();
        assert_eq!(ask(&cases, "c1", "t1", PROMISE).verdict, VerdictKind::Veto);
        let verdict = ask(&cases, "c1", "t1", "Someone from billing will call you tomorrow. Anything else?");
        assert_eq!(verdict.verdict, VerdictKind::Pass);
        assert_eq!(verdict.vetoes_in_turn, 2);
        let auto = verdict.auto_opened_case.clone().expect("a case was opened");
        assert_eq!(verdict.open_case, Some(auto.clone()));
        assert!(verdict.reason.unwrap().contains(&format!("case #{} was opened automatically", auto.number)));

        let case = cases.get_case(&auto.id).unwrap().case;
        assert_eq!(case.source, CaseSource::GuardrailAutofallback);
        assert_eq!(case.reason, HandoverReason::GuardrailAutofallback);
        assert_eq!(case.status, CaseStatus::AwaitingHuman);
        assert_eq!(case.conversation_id, "c1");
        assert_eq!(case.title, "Follow-up promised: Someone from billing will call you tomorrow.");
        assert!(case.summary.contains("twice in turn t1"), "{}", case.summary);
        assert!(case.summary.ends_with("Someone from billing will call you tomorrow. Anything else?"));
        assert_eq!(case.context[0].text, "Someone from billing will call you tomorrow. Anything else?");
    }

    #[test]
    fn an_auto_opened_case_of_a_portuguese_message_is_titled_in_portuguese() {
        let (_dir, cases) = database();
        ask(&cases, "c1", "t1", PROMISE);
        let auto = ask(&cases, "c1", "t1", PROMISE).auto_opened_case.unwrap();
        let case = cases.get_case(&auto.id).unwrap().case;
        assert_eq!(
            case.title,
            "Retorno prometido: Vou verificar com a equipe financeira e te retorno ainda hoje."
        );
        assert!(case
            .blocker
            .unwrap()
            .contains("\"Vou verificar com a equipe financeira e te retorno ainda hoje.\""));
    }

    #[test]
    fn once_the_guardrail_opened_a_case_later_promises_in_the_turn_pass_without_a_second_case() {
        let (_dir, cases) = database();
        ask(&cases, "c1", "t1", PROMISE);
        let first = ask(&cases, "c1", "t1", PROMISE).auto_opened_case.unwrap();
        let third = ask(&cases, "c1", "t1", PROMISE);
        assert_eq!(third.verdict, VerdictKind::Pass);
        assert_eq!((third.open_case, third.auto_opened_case), (Some(first), None));
        assert_eq!(count_cases(&cases), 1);
    }

    #[test]
    fn vetoes_in_different_turns_or_conversations_do_not_add_up() {
        let (_dir, cases) = database();
        assert_eq!(ask(&cases, "c1", "t1", PROMISE).verdict, VerdictKind::Veto);
        assert_eq!(ask(&cases, "c1", "t2", PROMISE).verdict, VerdictKind::Veto);
        assert_eq!(ask(&cases, "c2", "t1", PROMISE).verdict, VerdictKind::Veto);
        assert_eq!(open_case_of(&cases, "c1"), None);
    }

    #[test]
    fn a_rephrased_message_between_two_promises_does_not_reset_the_turn() {
        let (_dir, cases) = database();
        ask(&cases, "c1", "t1", PROMISE);
        assert_eq!(ask(&cases, "c1", "t1", "Vou te mandar o link.").verdict, VerdictKind::Pass);
        assert!(ask(&cases, "c1", "t1", PROMISE).auto_opened_case.is_some());
    }

    #[test]
    fn the_veto_count_survives_reopening_the_database() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(db::DATABASE_FILE);
        let first = SqliteCases::new(Database::open(&path).unwrap());
        assert_eq!(ask(&first, "c1", "t1", PROMISE).verdict, VerdictKind::Veto);
        first.database().close();
        drop(first);
        let verdict = ask(&SqliteCases::new(Database::open(&path).unwrap()), "c1", "t1", PROMISE);
        assert!(verdict.auto_opened_case.is_some());
    }

    #[test]
    fn concurrent_attempts_in_one_turn_veto_once_and_open_exactly_one_case() {
        let (_dir, cases) = database();
        let start = std::sync::Arc::new(std::sync::Barrier::new(4));
        let verdicts: Vec<Verdict> = (0..4)
            .map(|_| {
                let (cases, start) = (cases.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    ask(&cases, "c1", "t1", PROMISE)
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|handle| handle.join().unwrap())
            .collect();
        let case = open_case_of(&cases, "c1").expect("one case is open");
        let count = count_cases(&cases);
        let vetoed = verdicts.iter().filter(|v| v.verdict == VerdictKind::Veto).count();
        let auto_opened = verdicts.iter().filter(|v| v.auto_opened_case.is_some()).count();
        assert_eq!((count, vetoed, auto_opened), (1, 1, 1));
        for passed in verdicts.iter().filter(|v| v.verdict == VerdictKind::Pass) {
            assert_eq!(passed.open_case.as_ref().map(|c| c.id.as_str()), Some(case.id.as_str()));
        }
    }

    #[test]
    fn a_closed_case_does_not_cover_a_new_promise() {
        let (_dir, cases) = database();
        let case = open_by_agent(&cases, "c1");
        cases.cancel(&case.id, crate::model::Actor::Agent, None, None).unwrap();
        assert_eq!(ask(&cases, "c1", "t9", PROMISE).verdict, VerdictKind::Veto);
    }

    #[test]
    fn a_blank_conversation_or_turn_is_refused_with_invalid_input() {
        let (_dir, cases) = database();
        for (conversation, turn, field) in [(" ", "t1", "conversation_id"), ("c1", "", "turn_id")] {
            let req = BeforeSend {
                conversation_id: conversation.into(),
                turn_id: turn.into(),
                message: PROMISE.into(),
                agent_id: None,
            };
            let err = before_send(&cases, req, &calendar).unwrap_err();
            assert_eq!(err.code(), "invalid_input");
            assert_eq!(err.details(), Some(serde_json::json!({ "field": field })));
        }
    }

    #[test]
    fn a_turn_id_over_the_limit_is_refused() {
        let (_dir, cases) = database();
        let req = BeforeSend {
            conversation_id: "c1".into(),
            turn_id: "t".repeat(201),
            message: PROMISE.into(),
            agent_id: None,
        };
        let err = before_send(&cases, req, &calendar).unwrap_err();
        assert_eq!(err.to_string(), "turn_id is 201 characters long; at most 200 are allowed");
    }

    #[test]
    fn the_verdict_serialises_with_a_lowercase_verdict_tag() {
        let (_dir, cases) = database();
        let json =
            serde_json::to_value(ask(&cases, "c1", "t1", "Someone from billing will call you.")).unwrap();
        assert_eq!(json["verdict"], "veto");
        assert_eq!(json["rule"], "model");
        assert_eq!(json["evidence"], "Someone from billing will call you.");
        assert_eq!(
            (json["vetoes_in_turn"].as_i64(), &json["open_case"]),
            (Some(1), &serde_json::Value::Null)
        );
        let roles: Vec<&str> =
            json["spans"].as_array().unwrap().iter().map(|s| s["role"].as_str().unwrap()).collect();
        assert!(roles.contains(&"actor") && roles.contains(&"action"), "{roles:?}");
    }

    fn ledger(cases: &SqliteCases, case_id: &str) -> Vec<crate::promises::Promise> {
        cases.get_case(case_id).unwrap().promises
    }

    #[test]
    fn a_promise_that_an_open_case_covers_goes_on_its_ledger_with_who_what_and_when() {
        let (_dir, cases) = database();
        let case = open_by_agent(&cases, "c1");
        ask(&cases, "c1", "t1", "A Letícia da contabilidade te liga amanhã cedo para acertar o estorno.");
        let promises = ledger(&cases, &case.id);
        assert_eq!(promises.len(), 1);
        let promise = &promises[0];
        assert_eq!(promise.quote, "A Letícia da contabilidade te liga amanhã cedo para acertar o estorno.");
        assert!(promise.actor.as_deref().is_some_and(|a| a.contains("Letícia")), "{promise:?}");
        assert_eq!(promise.due_text.as_deref(), Some("amanhã cedo"));
        assert!(promise.due_at.as_deref().is_some_and(|at| at > crate::clock::now().as_str()), "{promise:?}");
        assert!(!promise.kept);
        let owed = cases.list_cases(&Default::default()).unwrap().items[0].promise.clone();
        assert_eq!(owed.map(|p| p.quote), Some(promise.quote.clone()));
    }

    #[test]
    fn the_case_the_second_veto_opens_carries_the_promise() {
        let (_dir, cases) = database();
        ask(&cases, "c1", "t1", PROMISE);
        let auto = ask(&cases, "c1", "t1", PROMISE).auto_opened_case.unwrap();
        let promises = ledger(&cases, &auto.id);
        assert_eq!(promises.len(), 1);
        assert_eq!(promises[0].due_text.as_deref(), Some("ainda hoje"));
    }

    #[test]
    fn the_same_promise_checked_again_in_a_turn_is_recorded_once() {
        let (_dir, cases) = database();
        let case = open_by_agent(&cases, "c1");
        ask(&cases, "c1", "t1", PROMISE);
        ask(&cases, "c1", "t1", PROMISE);
        ask(&cases, "c1", "t2", PROMISE);
        assert_eq!(ledger(&cases, &case.id).len(), 2);
    }

    #[test]
    fn a_persons_reply_keeps_the_promises_and_the_case_owes_none() {
        let (_dir, cases) = database();
        let case = open_by_agent(&cases, "c1");
        ask(&cases, "c1", "t1", PROMISE);
        cases.reply(&case.id, crate::model::HumanAction::Resolved, "Estorno feito.", "Ana").unwrap();
        assert!(ledger(&cases, &case.id)[0].kept);
        assert_eq!(cases.list_cases(&Default::default()).unwrap().items[0].promise, None);
    }
}
