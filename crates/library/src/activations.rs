//! Matching customer messages against the live skills (SPEC A7) and remembering what fired:
//! one `activations` row per hard match and per probe (with the live version), and the set of
//! skills active in each conversation, which level-3 reads are limited to (SPEC A6).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::repository::{Activation, LoggedActivation};
use super::types::DayCount;
use super::{Library, LibraryError};
use skillcase_skill::matcher::{SkillMatch, Trigger};

/// What a message fires: skills it activates (`hard`) and near misses (`probe`), in name order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct MatchOutcome {
    pub hard: Vec<SkillMatch>,
    pub probe: Vec<SkillMatch>,
}

impl Library {
    /// Matches `message` against the live, valid skills without recording anything (the UI's
    /// "Try a message").
    pub fn try_message(&self, message: &str) -> MatchOutcome {
        let served = self.write_state().served();
        let (hard, probe) =
            served.keywords.match_message(message).into_iter().partition(|m| m.trigger == Trigger::Hard);
        MatchOutcome { hard, probe }
    }

    /// Matches `message` for `conversation_id` and records it: one activation row per hard
    /// match and per probe, with the live version; hard matches become active in the
    /// conversation. All in one step.
    pub fn match_message(&self, conversation_id: &str, message: &str) -> Result<MatchOutcome, LibraryError> {
        let served = self.write_state().served();
        let (hard, probe): (Vec<_>, Vec<_>) =
            served.keywords.match_message(message).into_iter().partition(|m| m.trigger == Trigger::Hard);
        let activations = hard
            .iter()
            .chain(&probe)
            .map(|m| Activation {
                skill: m.name.clone(),
                version: served.versions.get(&m.name).copied().flatten(),
                trigger: m.trigger.as_str(),
            })
            .collect();
        let active = hard.iter().map(|m| m.name.clone()).collect();
        self.repo.record_match(conversation_id, message, activations, active)?;
        Ok(MatchOutcome { hard, probe })
    }

    /// Marks `name` active in `conversation_id` (a level-2 read by the agent does this).
    pub fn activate(&self, conversation_id: &str, name: &str) -> Result<(), LibraryError> {
        self.repo.activate(conversation_id, name)
    }

    /// True when `name` is active in `conversation_id`.
    pub fn is_active(&self, conversation_id: &str, name: &str) -> Result<bool, LibraryError> {
        self.repo.is_active(conversation_id, name)
    }

    /// Refuses with `skill_not_active` unless `name` is active in `conversation_id`.
    pub fn require_active(&self, conversation_id: &str, name: &str) -> Result<(), LibraryError> {
        if self.is_active(conversation_id, name)? {
            return Ok(());
        }
        Err(LibraryError::NotActive { name: name.to_string(), conversation_id: conversation_id.to_string() })
    }

    /// The latest `limit` (at most 200) activations of `name` with their messages, newest first:
    /// the activity log, from which an author turns a real message into a trigger case.
    pub fn activation_log(&self, name: &str, limit: u32) -> Result<Vec<LoggedActivation>, LibraryError> {
        self.repo.recent_activations(name, limit.clamp(1, 200))
    }

    /// Activations of `name` per UTC day over the last `days` days (today included), oldest
    /// first, days without activations included with zero counts.
    pub fn activity(&self, name: &str, days: u32) -> Result<Vec<DayCount>, LibraryError> {
        let days = days.clamp(1, 366);
        let today = time::OffsetDateTime::now_utc().date();
        let first = today - time::Duration::days(i64::from(days) - 1);
        let first_day = day_text(first);
        let counted = self.repo.activity(name, &first_day)?;
        Ok((0..days)
            .map(|i| {
                let day = day_text(first + time::Duration::days(i64::from(i)));
                let (hard, probe) = counted.get(&day).copied().unwrap_or((0, 0));
                DayCount { day, hard, probe }
            })
            .collect())
    }
}

fn day_text(date: time::Date) -> String {
    format!("{:04}-{:02}-{:02}", date.year(), u8::from(date.month()), date.day())
}
