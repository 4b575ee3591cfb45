//! Which changes raise a desktop notification for this desktop's person (SPEC D4): on a team's
//! inbox each person chooses in Settings → You to hear of every new case, of new cases nobody took,
//! or only of cases someone assigns to them. The desktop shows what this returns; the choice
//! itself is made here, once, for every front end that notifies.

use skillcase_cases::model::{Case, EventKind};
use skillcase_common::events::DomainEvent;

use crate::settings::{self, CaseAlerts};
use crate::App;

/// What to tell the person about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseAlert {
    /// A new case they want to hear of.
    Opened(Case),
    /// Someone else assigned them the case; `seq` is the assignment's event, so it is told once.
    AssignedToYou { case: Case, seq: i64 },
}

impl App {
    /// The notification `event` calls for under this person's choice, if any.
    pub async fn case_alert(&self, event: &DomainEvent) -> Option<CaseAlert> {
        let choice = self.alerts_choice().await;
        match event {
            DomainEvent::CaseOpened { id } => {
                let case = self.get_case(id.clone()).await.ok()?.case;
                let me = self.me().await.ok()?;
                choice.on_opened(case.assignee.as_deref(), &me).then_some(CaseAlert::Opened(case))
            }
            DomainEvent::CaseChanged { id } if choice == CaseAlerts::Mine && !id.is_empty() => {
                let found = self.get_case(id.clone()).await.ok()?;
                let last = found.events.last()?;
                let me = self.me().await.ok()?;
                let assignee = last.payload["assignee"].as_str();
                let assigned = last.kind == EventKind::Assigned
                    && choice.on_assigned(assignee, last.actor_name.as_deref(), &me);
                let seq = last.seq;
                assigned.then_some(CaseAlert::AssignedToYou { seq, case: found.case })
            }
            _ => None,
        }
    }

    async fn alerts_choice(&self) -> CaseAlerts {
        self.blocking(|app| Ok(settings::you(app.settings.as_ref())?))
            .await
            .ok()
            .and_then(|you| you.alerts)
            .unwrap_or_default()
    }
}
