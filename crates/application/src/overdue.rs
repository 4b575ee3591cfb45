//! Promises and response-time targets that fall due without a person's reply: every poll, the
//! cases whose promise became overdue are taken (each once) and announced with
//! `DomainEvent::PromiseOverdue`, which moves the window's inbox and raises the desktop
//! notification; so is each first-reply or resolution target that fell due (each once, with an
//! `sla_overdue` event on its timeline), as `DomainEvent::SlaOverdue`.

use std::time::Duration;

use skillcase_cases::sla::OverdueTarget;
use skillcase_common::clock;
use skillcase_common::events::DomainEvent;
use skillcase_common::ErrorBody;
use tokio::task::JoinHandle;

use crate::App;

/// Environment variable that overrides how often the watch looks, in seconds (tests use 1).
pub const OVERDUE_POLL_ENV: &str = "SKILLCASE_OVERDUE_POLL_SECS";

/// How often the watch looks: `$SKILLCASE_OVERDUE_POLL_SECS` when it is a positive number, else
/// 30 s.
pub fn poll_interval() -> Duration {
    std::env::var(OVERDUE_POLL_ENV)
        .ok()
        .and_then(|text| text.trim().parse::<u64>().ok())
        .filter(|secs| *secs > 0)
        .map_or(Duration::from_secs(30), Duration::from_secs)
}

/// Starts looking for overdue promises and targets every `every`, for as long as the application runs.
pub(crate) fn watch(app: App, every: Duration) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        loop {
            ticks.tick().await;
            if let Err(err) = app.announce_overdue_promises().await {
                eprintln!("skillcase: looking for overdue promises failed: {err}");
            }
            if let Err(err) = app.announce_overdue_targets_at(clock::now()).await {
                eprintln!("skillcase: looking for overdue response targets failed: {err}");
            }
        }
    })
}

impl App {
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
