//! Promises that fall due without a person's reply: every poll, the cases whose promise became
//! overdue are taken (each once) and announced with `DomainEvent::PromiseOverdue`, which moves
//! the window's inbox and raises the desktop notification.

use std::time::Duration;

use skillcase_common::clock;
use skillcase_common::events::DomainEvent;
use tokio::task::JoinHandle;

use crate::App;

/// Starts looking for overdue promises every `every`, for as long as the application runs.
pub(crate) fn watch(app: App, every: Duration) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        loop {
            ticks.tick().await;
            if let Err(err) = app.announce_overdue_promises().await {
                eprintln!("skillcase: looking for overdue promises failed: {err}");
            }
        }
    })
}

impl App {
    /// Announces every promise that became overdue since the last look; returns how many.
    pub async fn announce_overdue_promises(&self) -> Result<usize, skillcase_common::ErrorBody> {
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
}
