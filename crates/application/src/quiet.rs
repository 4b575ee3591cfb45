//! When the customer goes quiet: the job that sends the reminders and closes the cases
//! whose delays (Settings → Quiet customers) have passed, and the plan the case view shows.

use std::time::Duration;

use skillcase_cases::quiet::{self, QuietRun};
use skillcase_cases::store::CaseWithTimeline;
use skillcase_common::clock;
use skillcase_common::events::DomainEvent;
use skillcase_common::ErrorBody;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::app::Inner;
use crate::case_changes::{spawn_job, NOTHING_TAKEN_PAUSE, SAFETY_NET};
use crate::settings;
use crate::App;

/// Environment variable that caps how long the job sleeps, in seconds (tests use 1).
pub const QUIET_POLL_ENV: &str = "SKILLCASE_QUIET_POLL_SECS";

/// The longest the job sleeps between looks: `$SKILLCASE_QUIET_POLL_SECS` when it is a positive
/// number, else [`SAFETY_NET`]. Normally it wakes at the next reminder or closing due, or on a
/// change.
pub fn poll_interval() -> Duration {
    crate::case_changes::env_secs(QUIET_POLL_ENV).unwrap_or(SAFETY_NET)
}

/// Starts the job, for as long as the application runs: it sleeps until the next reminder or
/// closing falls due, until a case or a setting changes, or `longest`, whichever comes first.
pub(crate) fn watch(app: App, changes: watch::Receiver<u64>, longest: Duration) -> JoinHandle<()> {
    spawn_job(changes, longest, "following up quiet customers", move || {
        let app = app.clone();
        async move { app.quiet_round().await }
    })
}

impl App {
    /// One look of the job: runs it when a reminder or closing is due, and says how long to
    /// sleep before the next look. Reads only while nothing is due.
    async fn quiet_round(&self) -> Result<Duration, ErrorBody> {
        let next = self
            .blocking(|app| {
                let delays = settings::quiet_settings(app.settings.as_ref())?.delays();
                Ok(app.cases.next_quiet_at(&delays)?)
            })
            .await?;
        let Some(wait) = next.as_deref().and_then(clock::until) else { return Ok(Duration::MAX) };
        if !wait.is_zero() {
            return Ok(wait);
        }
        let run = self.follow_up_quiet_customers().await?;
        let took = run.reminded.len() + run.closed.len();
        Ok(if took == 0 { NOTHING_TAKEN_PAUSE } else { Duration::ZERO })
    }

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
