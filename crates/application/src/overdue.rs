//! Promises and response-time targets that fall due without a person's reply: at each due time,
//! the cases whose promise became overdue are taken (each once) and announced with
//! `DomainEvent::PromiseOverdue`, which moves the window's inbox and raises the desktop
//! notification; so is each first-reply or resolution target that fell due (each once, with an
//! `sla_overdue` event on its timeline), as `DomainEvent::SlaOverdue`.

use std::time::Duration;

use skillcase_cases::sla::OverdueTarget;
use skillcase_common::clock;
use skillcase_common::events::DomainEvent;
use skillcase_common::ErrorBody;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::case_changes::{spawn_job, NOTHING_TAKEN_PAUSE, SAFETY_NET};
use crate::App;

/// Environment variable that caps how long the watch sleeps, in seconds (tests use 1).
pub const OVERDUE_POLL_ENV: &str = "SKILLCASE_OVERDUE_POLL_SECS";

/// The longest the watch sleeps between looks: `$SKILLCASE_OVERDUE_POLL_SECS` when it is a
/// positive number, else [`SAFETY_NET`]. Normally it wakes at the next due time or on a change.
pub fn poll_interval() -> Duration {
    crate::case_changes::env_secs(OVERDUE_POLL_ENV).unwrap_or(SAFETY_NET)
}

/// Starts the watch, for as long as the application runs: it sleeps until the next promise or
/// target falls due, until a case changes (which can move that time), or `longest`, whichever
/// comes first.
pub(crate) fn watch(app: App, changes: watch::Receiver<u64>, longest: Duration) -> JoinHandle<()> {
    spawn_job(changes, longest, "looking for overdue promises and targets", move || {
        let app = app.clone();
        async move { app.overdue_round().await }
    })
}

impl App {
    /// One look of the watch: announces what fell due, if anything did, and says how long to
    /// sleep before the next. Reads only (no write transaction) while nothing is due.
    async fn overdue_round(&self) -> Result<Duration, ErrorBody> {
        let next = self.blocking(|app| Ok(app.cases.next_overdue_at()?)).await?;
        let Some(wait) = next.as_deref().and_then(clock::until) else { return Ok(Duration::MAX) };
        if !wait.is_zero() {
            return Ok(wait);
        }
        let promises = self.announce_overdue_promises().await?;
        let targets = self.announce_overdue_targets_at(clock::now()).await?.len();
        Ok(if promises + targets == 0 { NOTHING_TAKEN_PAUSE } else { Duration::ZERO })
    }

    /// Announces every promise that became overdue since the last look; returns how many.
    pub async fn announce_overdue_promises(&self) -> Result<usize, ErrorBody> {
        let now = clock::now();
        let overdue = self.blocking(move |app| Ok(app.cases.take_overdue_promises(&now)?)).await?;
        for promise in &overdue {
            self.publish(DomainEvent::PromiseOverdue {
                id: promise.case_id.clone(),
                number: promise.number,
                quote: promise.quote.clone(),
            });
        }
        Ok(overdue.len())
    }

    /// Announces every response-time target that fell due unmet by `now` (RFC 3339) and was not
    /// announced yet; returns them. Each gets its `sla_overdue` event in the same transaction
    /// that marks it announced, so a crash never announces one twice or not at all.
    pub async fn announce_overdue_targets_at(&self, now: String) -> Result<Vec<OverdueTarget>, ErrorBody> {
        let overdue = self.blocking(move |app| Ok(app.cases.take_overdue_targets(&now)?)).await?;
        for target in &overdue {
            self.publish(DomainEvent::SlaOverdue {
                id: target.case_id.clone(),
                number: target.number,
                target: target.target.as_str().to_string(),
            });
            self.publish(DomainEvent::CaseChanged { id: target.case_id.clone() });
        }
        Ok(overdue)
    }
}
