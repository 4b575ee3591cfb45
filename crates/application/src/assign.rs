//! Assignment (SPEC D4): who works a case. The inbox's *Take*, *Assign to…* and *Unassign*,
//! and its *Mine* view, all name the person at this desktop the same way: the name saved in
//! Settings → You, or the system user until one is saved. The same name is recorded on every
//! event this desktop writes, so the timeline says who did what.

use skillcase_cases::lease::Replying;
use skillcase_cases::model::Case;
use skillcase_common::events::DomainEvent;
use skillcase_common::ErrorBody;

use crate::app::Inner;
use crate::{settings, App};

impl App {
    /// The name this desktop's person goes by on cases and their timelines.
    pub async fn me(&self) -> Result<String, ErrorBody> {
        self.blocking(me_of).await
    }

    /// Gives the open cases to `assignee` (`None`: leaves them to anyone), all of them or none —
    /// a closed case refuses the whole action — each change an event by this desktop's person,
    /// announced. Returns the cases as they now stand.
    pub async fn assign_cases(
        &self,
        ids: Vec<String>,
        assignee: Option<String>,
    ) -> Result<Vec<Case>, ErrorBody> {
        let cases = self
            .blocking(move |inner| {
                let me = me_of(inner)?;
                Ok(inner.cases.assign(&ids, assignee.as_deref(), &me)?)
            })
            .await?;
        for case in &cases {
            self.publish(DomainEvent::CaseChanged { id: case.id.clone() });
        }
        Ok(cases)
    }

    /// *Take*: assigns the open case to this desktop's person.
    pub async fn take_case(&self, id: String) -> Result<Case, ErrorBody> {
        let me = self.me().await?;
        let mut cases = self.assign_cases(vec![id], Some(me)).await?;
        Ok(cases.remove(0))
    }

    /// This desktop's person is writing a reply on the case (called as they type): holds the
    /// case's short lease so other desktops show "… is replying" and hold off their Send. Returns
    /// the lease in force — another person's while theirs runs.
    pub async fn hold_reply(&self, id: String) -> Result<Replying, ErrorBody> {
        let me = self.me().await?;
        let lease = self.blocking(move |app| Ok(app.cases.hold_reply(&id, &me)?)).await?;
        Ok(lease)
    }
}

/// Settings' You name, or the system user's when none is saved.
pub(crate) fn me_of(inner: &Inner) -> Result<String, ErrorBody> {
    let you = settings::you(inner.settings.as_ref())?;
    Ok(if you.name.is_empty() { inner.person.clone() } else { you.name })
}
