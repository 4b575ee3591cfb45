//! Response-time targets: how long a person may take to give a case its first reply
//! and to resolve it, counted in the workspace's business hours, the clock paused while the case
//! waits on the customer.
//!
//! A case takes the targets in force when it opens and keeps its due times in its row, written
//! in the same transaction as the transition that moves them: opening sets them, entering
//! *Waiting on customer* records the pause, leaving it pushes every due time not yet met by the
//! business time paused. `sla_due_at`, the next due time still running, is what "due soonest"
//! walks in index order. First reply is met when a person first answers; resolution when the
//! case closes. The watch takes each target that fell due once ([`take_overdue`]) and leaves an
//! `sla_overdue` event on the timeline.

use jiff::{SignedDuration, Timestamp, ZonedDateTime};
use serde::{Deserialize, Serialize};
use serde_json::json;
/// The business calendar the targets are counted in.
pub use skillcase_guard::due::Calendar;
use skillcase_guard::due::CalendarSettings;
use ts_rs::TS;

use super::clock;
use super::error::CasesError;
use super::model::{Actor, CaseStatus, EventKind};
use super::rows::append_event;
use crate::args;
use crate::sql::Sql;

/// The settings key the targets are saved under.
pub const TARGETS_SETTING: &str = "response_targets";
/// The settings key of the business calendar the targets (and promises) are counted in.
pub const CALENDAR_SETTING: &str = "business_calendar";
/// The longest target accepted: 90 days of round-the-clock business hours, in minutes.
pub const MAX_TARGET_MINUTES: u32 = 90 * 24 * 60;

/// The workspace's response-time targets, in business minutes; `None` turns a target off.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ResponseTargets {
    /// From opening to a person's first answer.
    pub first_reply_minutes: Option<u32>,
    /// From opening to the case closing.
    pub resolution_minutes: Option<u32>,
}

impl ResponseTargets {
    /// The first target out of range, with why; `None` when both can be saved.
    pub fn problem(&self) -> Option<(&'static str, String)> {
        [("first_reply_minutes", self.first_reply_minutes), ("resolution_minutes", self.resolution_minutes)]
            .into_iter()
            .find_map(|(field, minutes)| match minutes {
                Some(0) => Some((field, "must be at least 1 minute (or off)".to_string())),
                Some(m) if m > MAX_TARGET_MINUTES => {
                    Some((field, format!("is {m} minutes; at most {MAX_TARGET_MINUTES} are allowed")))
                }
                _ => None,
            })
    }
}

/// Which target a clock counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum SlaTarget {
    FirstReply,
    Resolution,
}

impl SlaTarget {
    /// The snake_case name used in event payloads.
    pub fn as_str(self) -> &'static str {
        match self {
            SlaTarget::FirstReply => "first_reply",
            SlaTarget::Resolution => "resolution",
        }
    }
}

/// Where one target stands at the moment the case was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum SlaState {
    /// Counting down; not due yet.
    Running,
    /// Stopped while the case waits on the customer, not due yet.
    Paused,
    /// Past its due time and not met: a breach in progress.
    Overdue,
    /// Met in time.
    Met,
    /// Met after its due time: a breach.
    Late,
}

/// One target's clock on a case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SlaClock {
    /// The target the case was opened under, in business minutes.
    pub target_minutes: u32,
    /// When it falls due (RFC 3339 UTC), after every pause so far.
    pub due_at: String,
    /// When it was met: the first answer, or the close.
    pub met_at: Option<String>,
    pub state: SlaState,
}

/// A case's response-time targets: absent when they were off as it opened.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CaseSla {
    pub first_reply: Option<SlaClock>,
    pub resolution: Option<SlaClock>,
    /// Since when the clocks stand still because the case waits on the customer.
    pub paused_since: Option<String>,
    /// The next due time still running ("due soonest" sorts by it); `None` while paused or closed.
    pub next_due_at: Option<String>,
}

/// A target's state: met (in time or late) once met; else overdue past its due time — a pause
/// that began after the due time does not hide the breach — else paused or running.
pub fn state_of(due_at: &str, met_at: Option<&str>, paused_since: Option<&str>, now: &str) -> SlaState {
    match (met_at, paused_since) {
        (Some(met), _) if met <= due_at => SlaState::Met,
        (Some(_), _) => SlaState::Late,
        (None, Some(paused)) if paused >= due_at => SlaState::Overdue,
        (None, Some(_)) => SlaState::Paused,
        (None, None) if now >= due_at => SlaState::Overdue,
        (None, None) => SlaState::Running,
    }
}

/// Starts the clocks of a case just opened at `opened_at` with the targets in force, so a case
/// keeps the targets it opened under whatever is saved later.
pub(crate) fn start(sql: &mut dyn Sql, case_id: &str, opened_at: &str) -> Result<(), CasesError> {
    let targets = saved_targets(sql)?;
    let (first_reply, resolution) = (targets.first_reply_minutes, targets.resolution_minutes);
    if first_reply.is_none() && resolution.is_none() {
        return Ok(());
    }
    let calendar = calendar(sql)?;
    let due = |minutes: Option<u32>| minutes.and_then(|m| due_after(&calendar, opened_at, m));
    let (first_due, resolution_due) = (due(first_reply), due(resolution));
    sql.execute(
        "UPDATE cases SET first_reply_target = $2, first_reply_due_at = $3, resolution_target = $4, \
         resolution_due_at = $5 WHERE id = $1",
        args![case_id, first_reply.map(i64::from), &first_due, resolution.map(i64::from), &resolution_due],
    )?;
    refresh_next_due(sql, case_id)
}

/// Moves the clocks with a change of status at `now`: entering *Waiting on customer* pauses
/// them; leaving it pushes each due time not yet met by the business time paused. Call after the
/// status (and a first reply) is written.
pub(crate) fn on_status(
    sql: &mut dyn Sql,
    case_id: &str,
    from: CaseStatus,
    to: CaseStatus,
    now: &str,
) -> Result<(), CasesError> {
    match clock_change(from, to) {
        ClockChange::Pause => {
            sql.execute("UPDATE cases SET sla_paused_at = $2 WHERE id = $1", args![case_id, now])?;
        }
        ClockChange::Resume => resume(sql, case_id, now)?,
        ClockChange::Keep => {}
    }
    refresh_next_due(sql, case_id)
}

/// What a change of status does to the response-time clocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockChange {
    /// The case starts waiting on the customer: the clocks stand still from now.
    Pause,
    /// The case stops waiting on the customer: the clocks run again, pushed by the pause.
    Resume,
    /// Nothing changes for the clocks.
    Keep,
}

/// The clocks pause while a case waits on the customer and resume when it stops. Public so
/// every storage backend pauses and resumes on the same changes of status.
pub fn clock_change(from: CaseStatus, to: CaseStatus) -> ClockChange {
    let waits_on_customer = |s: CaseStatus| s == CaseStatus::AwaitingLead;
    match (waits_on_customer(from), waits_on_customer(to)) {
        (false, true) => ClockChange::Pause,
        (true, false) => ClockChange::Resume,
        _ => ClockChange::Keep,
    }
}

/// Ends a pause at `now`, pushing the due times not yet met by the business time paused, so the
/// customer's silence does not count against the team.
fn resume(sql: &mut dyn Sql, case_id: &str, now: &str) -> Result<(), CasesError> {
    let row = sql.query_one(
        "SELECT sla_paused_at, CASE WHEN first_reply_at IS NULL THEN first_reply_due_at END, \
         resolution_due_at FROM cases WHERE id = $1",
        args![case_id],
    )?;
    let (paused_at, first_reply_due, resolution_due) = (row.opt_text(0)?, row.opt_text(1)?, row.opt_text(2)?);
    let calendar = match &paused_at {
        Some(_) if first_reply_due.is_some() || resolution_due.is_some() => Some(calendar(sql)?),
        _ => None,
    };
    let pushed = |due: Option<String>| -> Option<String> {
        push_by_pause(calendar.as_ref()?, &due?, paused_at.as_deref()?, now)
    };
    let (first_reply_due, resolution_due) = (pushed(first_reply_due), pushed(resolution_due));
    sql.execute(
        "UPDATE cases SET sla_paused_at = NULL, first_reply_due_at = coalesce($2, first_reply_due_at), \
         resolution_due_at = coalesce($3, resolution_due_at) WHERE id = $1",
        args![case_id, &first_reply_due, &resolution_due],
    )?;
    Ok(())
}

/// When a target of `minutes` business minutes counted from `from` (a stored timestamp) falls
/// due: outside opening hours, weekends and holidays the clock does not run.
pub fn due_after(calendar: &Calendar, from: &str, minutes: u32) -> Option<String> {
    let from = zoned(from, calendar)?;
    let due = calendar.add_business_time(&from, SignedDuration::from_mins(i64::from(minutes)))?;
    Some(crate::guard::stamp(&due))
}

/// `due` moved later by the business time between `paused_at` and `resumed_at`: a clock that
/// stood still over a pause resumes with the business time it lost, and no more.
pub fn push_by_pause(calendar: &Calendar, due: &str, paused_at: &str, resumed_at: &str) -> Option<String> {
    let paused = calendar.business_time_between(&zoned(paused_at, calendar)?, &zoned(resumed_at, calendar)?);
    if paused.is_zero() {
        return Some(due.to_string());
    }
    let pushed = calendar.add_business_time(&zoned(due, calendar)?, paused)?;
    Some(crate::guard::stamp(&pushed))
}

/// Writes the next running due time: the unmet first reply or the resolution, whichever is
/// sooner; none while paused or closed. "Due soonest" and the watch read it.
pub(crate) fn refresh_next_due(sql: &mut dyn Sql, case_id: &str) -> Result<(), CasesError> {
    let least = sql.dialect().least();
    sql.execute(
        &format!(
            "UPDATE cases SET sla_due_at = CASE \
                 WHEN closed_at IS NOT NULL OR sla_paused_at IS NOT NULL THEN NULL \
                 WHEN first_reply_at IS NOT NULL OR first_reply_due_at IS NULL THEN resolution_due_at \
                 WHEN resolution_due_at IS NULL THEN first_reply_due_at \
                 ELSE {least}(first_reply_due_at, resolution_due_at) END \
             WHERE id = $1"
        ),
        args![case_id],
    )?;
    Ok(())
}

/// A target that fell due on an open case, announced once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverdueTarget {
    pub case_id: String,
    pub number: i64,
    pub target: SlaTarget,
    pub due_at: String,
}

impl OverdueTarget {
    /// The payload of its `sla_overdue` event:.
    pub fn event_payload(&self) -> serde_json::Value {
        json!({ "target": self.target.as_str(), "due_at": self.due_at })
    }
}

/// The running targets due at `now` that nobody was told about yet: each is marked told and
/// gets an `sla_overdue` event (actor `system`) in one transaction, so each is announced once
/// whichever instance polls first.
pub fn take_overdue(sql: &mut dyn Sql, now: &str) -> Result<Vec<OverdueTarget>, CasesError> {
    let mut taken = take_target(sql, SlaTarget::FirstReply, now)?;
    taken.extend(take_target(sql, SlaTarget::Resolution, now)?);
    for overdue in &taken {
        let payload = overdue.event_payload();
        append_event(sql, &overdue.case_id, EventKind::SlaOverdue, Actor::System, None, now, &payload)?;
    }
    Ok(taken)
}

/// When the next running target not yet announced falls due (`None`: no clock runs), read from
/// the partial indexes that hold exactly the clocks [`take_overdue`] takes.
pub fn next_overdue(sql: &mut dyn Sql) -> Result<Option<String>, CasesError> {
    let dialect = sql.dialect();
    let row = sql.query_one(
        &format!(
            "SELECT (SELECT min(first_reply_due_at) FROM cases{} WHERE first_reply_at IS NULL \
                     AND NOT first_reply_overdue_told AND first_reply_due_at IS NOT NULL \
                     AND closed_at IS NULL AND sla_paused_at IS NULL), \
                    (SELECT min(resolution_due_at) FROM cases{} WHERE closed_at IS NULL \
                     AND NOT resolution_overdue_told AND resolution_due_at IS NOT NULL \
                     AND sla_paused_at IS NULL)",
            dialect.indexed_by(FIRST_REPLY_INDEX),
            dialect.indexed_by(RESOLUTION_INDEX),
        ),
        args![],
    )?;
    Ok(earliest([row.opt_text(0)?, row.opt_text(1)?]))
}

/// The earliest of some RFC 3339 times, compared as times (not as text).
pub fn earliest(times: impl IntoIterator<Item = Option<String>>) -> Option<String> {
    times
        .into_iter()
        .flatten()
        .filter_map(|at| clock::parse(&at).map(|parsed| (parsed, at)))
        .min_by_key(|(parsed, _)| *parsed)
        .map(|(_, at)| at)
}

/// One target's clocks that fell due at `now` unannounced, marked told.
fn take_target(sql: &mut dyn Sql, target: SlaTarget, now: &str) -> Result<Vec<OverdueTarget>, CasesError> {
    let (told, due, running, index) = match target {
        SlaTarget::FirstReply => (
            "first_reply_overdue_told",
            "first_reply_due_at",
            "first_reply_at IS NULL AND ",
            FIRST_REPLY_INDEX,
        ),
        SlaTarget::Resolution => ("resolution_overdue_told", "resolution_due_at", "", RESOLUTION_INDEX),
    };
    let condition = format!("{due} <= $1 AND {running}closed_at IS NULL AND sla_paused_at IS NULL");
    let marked = Marked { told, index, condition: &condition, columns: &format!("id, number, {due}") };
    let rows = take_marked(sql, marked, now)?;
    rows.iter()
        .map(|row| {
            Ok(OverdueTarget { case_id: row.text(0)?, number: row.int(1)?, target, due_at: row.text(2)? })
        })
        .collect()
}

/// The partial index of the first-reply clocks still running and not yet announced.
const FIRST_REPLY_INDEX: &str = "cases_first_reply_due";
/// The partial index of the resolution clocks still running and not yet announced.
const RESOLUTION_INDEX: &str = "cases_resolution_due";

/// What [`take_marked`] takes: the cases matching `condition` (`$1` is `now`) whose flag `told`
/// is still off, read through the partial `index` that holds exactly those, returning `columns`.
pub(crate) struct Marked<'a> {
    pub told: &'a str,
    pub index: &'a str,
    pub condition: &'a str,
    pub columns: &'a str,
}

/// Sets the flag on the cases [`Marked`] names, returning its columns of each, by number. On the
/// team database the rows are locked in id order and the ones another instance holds are
/// skipped: that instance is taking them, and if it rolls back they are still due at the next
/// poll.
pub(crate) fn take_marked(
    sql: &mut dyn Sql,
    marked: Marked<'_>,
    now: &str,
) -> Result<Vec<crate::sql::Row>, CasesError> {
    let Marked { told, index, condition, columns } = marked;
    let (skip_locked, from) = (sql.dialect().skip_locked(), sql.dialect().indexed_by(index));
    let mut rows = sql.query(
        &format!(
            "UPDATE cases SET {told} = true WHERE id IN (\
                 SELECT id FROM cases{from} WHERE {condition} AND NOT {told} ORDER BY id{skip_locked}) \
             RETURNING {columns}"
        ),
        args![now],
    )?;
    rows.sort_by_key(|row| row.int(1).unwrap_or_default());
    Ok(rows)
}

/// The saved targets; both off until some are saved (or when the saved ones no longer read).
pub fn saved_targets(sql: &mut dyn Sql) -> Result<ResponseTargets, CasesError> {
    Ok(targets_from(setting(sql, TARGETS_SETTING)?.as_deref()))
}

/// The targets saved as `saved` (the [`TARGETS_SETTING`] value); both off when there is none or
/// it no longer reads.
pub fn targets_from(saved: Option<&str>) -> ResponseTargets {
    saved.and_then(|text| serde_json::from_str(text).ok()).unwrap_or_default()
}

/// The saved business calendar; the default one when none is saved or it no longer resolves.
pub fn calendar(sql: &mut dyn Sql) -> Result<Calendar, CasesError> {
    Ok(calendar_from(setting(sql, CALENDAR_SETTING)?.as_deref()))
}

/// The calendar saved as `saved` (the [`CALENDAR_SETTING`] value); the default one when there
/// is none or it no longer resolves.
pub fn calendar_from(saved: Option<&str>) -> Calendar {
    let saved: Option<CalendarSettings> = saved.and_then(|text| serde_json::from_str(text).ok());
    saved.and_then(|s| Calendar::from_settings(&s).ok()).unwrap_or_else(Calendar::workspace_default)
}

/// One of the case settings, as saved (JSON text).
fn setting(sql: &mut dyn Sql, key: &str) -> Result<Option<String>, CasesError> {
    sql.query_opt("SELECT value FROM settings WHERE key = $1", args![key])?.map(|row| row.text(0)).transpose()
}

fn zoned(stamp: &str, calendar: &Calendar) -> Option<ZonedDateTime> {
    Some(stamp.parse::<Timestamp>().ok()?.to_zoned_datetime(calendar.time_zone().clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUE: &str = "2025-03-12T12:00:00.000Z";

    #[test]
    fn a_target_met_before_its_due_time_is_met() {
        assert_eq!(state_of(DUE, Some("2025-03-12T11:00:00.000Z"), None, DUE), SlaState::Met);
    }

    #[test]
    fn a_target_met_after_its_due_time_is_late() {
        assert_eq!(state_of(DUE, Some("2025-03-12T12:35:00.000Z"), None, DUE), SlaState::Late);
    }

    #[test]
    fn a_pause_that_began_after_the_due_time_still_shows_the_breach() {
        assert_eq!(state_of(DUE, None, Some("2025-03-12T13:00:00.000Z"), DUE), SlaState::Overdue);
    }

    #[test]
    fn a_pause_before_the_due_time_is_paused_however_late_it_is_now() {
        let now = "2025-03-20T00:00:00.000Z";
        assert_eq!(state_of(DUE, None, Some("2025-03-12T11:00:00.000Z"), now), SlaState::Paused);
    }

    #[test]
    fn a_target_of_zero_minutes_is_refused_naming_its_field() {
        let targets = ResponseTargets { first_reply_minutes: Some(0), resolution_minutes: None };
        assert_eq!(targets.problem().map(|(field, _)| field), Some("first_reply_minutes"));
    }

    #[test]
    fn a_target_beyond_ninety_days_is_refused() {
        let targets =
            ResponseTargets { first_reply_minutes: None, resolution_minutes: Some(MAX_TARGET_MINUTES + 1) };
        assert_eq!(targets.problem().map(|(field, _)| field), Some("resolution_minutes"));
    }
}
