//! When the customer goes quiet: the periodic job that sends the reminders and closes the cases
//! whose delays (Settings → Quiet customers) have passed, and the plan the case view shows.

use std::time::Duration;

use skillcase_cases::quiet::{self, QuietRun};
use skillcase_cases::store::CaseWithTimeline;
use skillcase_common::clock;
use skillcase_common::events::DomainEvent;
use skillcase_common::ErrorBody;
use tokio::task::JoinHandle;

use crate::app::Inner;
use crate::settings;
use crate::App;

/// Environment variable that overrides how often the job runs, in seconds (tests use 1).
pub const QUIET_POLL_ENV: &str = "SKILLCASE_QUIET_POLL_SECS";

/// How often the job runs: `$SKILLCASE_QUIET_POLL_SECS` when it is a positive number, else 30 s.
pub fn poll_interval() -> Duration {
    std::env::var(QUIET_POLL_ENV)
        .ok()
        .and_then(|text| text.trim().parse::<u64>().ok())
        .filter(|secs| *secs > 0)
        .map_or(Duration::from_secs(30), Duration::from_secs)
}

/// Starts running the job every `every`, for as long as the application runs.
pub(crate) fn watch(app: App, every: Duration) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        loop {
            ticks.tick().await;
            if let Err(err) = app.follow_up_quiet_customers().await {
                eprintln!("skillcase: following up quiet customers failed: {err}");
            }
        }
    })
}

impl App {
    /// One run of the quiet-customer job now: [`App::follow_up_quiet_customers_at`] with the clock.
    pub async fn follow_up_quiet_customers(&self) -> Result<QuietRun, ErrorBody> {
        self.follow_up_quiet_customers_at(clock::now()).await
    }

    /// One run of the job as if it were `now` (RFC 3339): every case waiting on the customer past
    /// the first delay gets its reminder, every one past the second closes, with the saved
    /// delays; each changed case is announced and the delivery worker woken.
    pub async fn follow_up_quiet_customers_at(&self, now: String) -> Result<QuietRun, ErrorBody> {
        let run = self
            .blocking(move |app| {
                let delays = settings::quiet_settings(app.settings.as_ref())?.delays();
                if delays.remind_after.is_none() && delays.close_after.is_none() {
                    return Ok(QuietRun::default());
                }
                Ok(app.cases.follow_up_quiet(&now, &delays)?)
            })
            .await?;
        for id in run.reminded.iter().chain(&run.closed) {
            self.publish(DomainEvent::CaseChanged { id: id.clone() });
        }
        if !run.reminded.is_empty() || !run.closed.is_empty() {
            self.wake_delivery();
        }
        Ok(run)
    }
}

/// The case with its quiet-customer plan under the saved delays (a case not waiting on the
/// customer has none). A stored setting that no longer reads leaves the plan out.
pub(crate) fn with_plan(app: &Inner, mut case: CaseWithTimeline) -> CaseWithTimeline {
    if let Ok(saved) = settings::quiet_settings(app.settings.as_ref()) {
        case.quiet = quiet::plan(&case, &saved.delays());
    }
    case
}
