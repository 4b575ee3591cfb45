//! Matching customer messages against the live skills (SPEC A7) and remembering what fired:
//! one `activations` row per hard match and per probe (with the live version), and the set of
//! skills active in each conversation, which level-3 reads are limited to (SPEC A6).

use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::types::DayCount;
use super::{now, Library, LibraryError};
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
    /// conversation. All in one transaction.
    pub fn match_message(&self, conversation_id: &str, message: &str) -> Result<MatchOutcome, LibraryError> {
        let served = self.write_state().served();
        let (hard, probe): (Vec<_>, Vec<_>) =
            served.keywords.match_message(message).into_iter().partition(|m| m.trigger == Trigger::Hard);
        let stamp = now();
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        for m in hard.iter().chain(&probe) {
            let version = served.versions.get(&m.name).copied().flatten();
            tx.execute(
                "INSERT INTO activations (skill, version_id, trigger, conversation_id, at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![m.name, version, m.trigger.as_str(), conversation_id, stamp],
            )?;
        }
        for m in &hard {
            activate(&tx, conversation_id, &m.name, &stamp)?;
        }
        tx.commit()?;
        Ok(MatchOutcome { hard, probe })
    }

    /// Marks `name` active in `conversation_id` (a level-2 read by the agent does this).
    pub fn activate(&self, conversation_id: &str, name: &str) -> Result<(), LibraryError> {
        activate(&self.conn(), conversation_id, name, &now())?;
        Ok(())
    }

    /// True when `name` is active in `conversation_id`.
    pub fn is_active(&self, conversation_id: &str, name: &str) -> Result<bool, LibraryError> {
        let found: Option<i64> = self
            .conn()
            .query_row(
                "SELECT 1 FROM active_skills WHERE conversation_id = ?1 AND skill = ?2",
                params![conversation_id, name],
                |r| r.get(0),
            )
            .optional()?;
        Ok(found.is_some())
    }

    /// Refuses with `skill_not_active` unless `name` is active in `conversation_id`.
    pub fn require_active(&self, conversation_id: &str, name: &str) -> Result<(), LibraryError> {
        if self.is_active(conversation_id, name)? {
            return Ok(());
        }
        Err(LibraryError::NotActive { name: name.to_string(), conversation_id: conversation_id.to_string() })
    }

    /// Activations of `name` per UTC day over the last `days` days (today included), oldest
    /// first, days without activations included with zero counts.
    pub fn activity(&self, name: &str, days: u32) -> Result<Vec<DayCount>, LibraryError> {
        let days = days.clamp(1, 366);
        let today = time::OffsetDateTime::now_utc().date();
        let first = today - time::Duration::days(i64::from(days) - 1);
        let first_day = day_text(first);
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT substr(at, 1, 10) AS day,
                    sum(trigger = 'hard'), sum(trigger = 'probe')
             FROM activations WHERE skill = ?1 AND at >= ?2
             GROUP BY day",
        )?;
        let counted: std::collections::HashMap<String, (u32, u32)> = stmt
            .query_map(params![name, first_day], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?))))?
            .collect::<Result<_, _>>()?;
        Ok((0..days)
            .map(|i| {
                let day = day_text(first + time::Duration::days(i64::from(i)));
                let (hard, probe) = counted.get(&day).copied().unwrap_or((0, 0));
                DayCount { day, hard, probe }
            })
            .collect())
    }
}

fn activate(
    conn: &rusqlite::Connection,
    conversation_id: &str,
    name: &str,
    stamp: &str,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT OR IGNORE INTO active_skills (conversation_id, skill, since) VALUES (?1, ?2, ?3)",
        params![conversation_id, name, stamp],
    )?;
    Ok(())
}

fn day_text(date: time::Date) -> String {
    format!("{:04}-{:02}-{:02}", date.year(), u8::from(date.month()), date.day())
}
