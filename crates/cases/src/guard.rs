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
use skillcase_guard::due::{due_for, Calendar};
use skillcase_guard::model::Model;
use skillcase_guard::{detect_with, Detection, Language, Span, SpanRole};

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
}

impl Coded for GuardError {
    fn code(&self) -> &'static str {
        match self {
            GuardError::InvalidInput { .. } => "invalid_input",
            GuardError::Cases(inner) => inner.code(),
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        match self {
            GuardError::InvalidInput { field, .. } => Some(serde_json::json!({ "field": field })),
            GuardError::Cases(inner) => inner.details(),
        }
    }
}

/// Decides whether the agent may send `req.message` (SPEC B5); see the module doc. `model` is
/// the workspace's detector model (the shipped one, or the one a retrain with the team's marks
/// adopted). `calendar` gives the workspace's business calendar, in which a promise's due time
/// is resolved; it is asked for only when a promise passes.
pub fn before_send(
    cases: &dyn CasesRepository,
    req: BeforeSend,
    model: &Model,
    calendar: &dyn Fn() -> Calendar,
) -> Result<Verdict, GuardError> {
    let req = checked(req)?;
    if !cases.agent_switches(req.agent_id.as_deref())?.guardrail_enabled {
        return Ok(unchecked(req.agent_id.as_deref().unwrap_or_default()));
    }
    let found = detect_with(model, &req.message);
    if !found.promise {
        return Ok(verdict(VerdictKind::Pass, None, &found, 0));
    }
    let veto = Veto {
        conversation_id: req.conversation_id.clone(),
        turn_id: req.turn_id.clone(),
        rule: found.rule.clone(),
        evidence: found.evidence.clone(),
        message: req.message.clone(),
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
    let due = due_for(&req.message, found, &now, calendar);
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
