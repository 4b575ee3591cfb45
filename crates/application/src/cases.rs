//! The cases half's user actions (SPEC B1–B5): what support staff do in the inbox, and what the
//! agent does over its API. Each method is the whole action.

use skillcase_cases::guard::{self, BeforeSend, GuardError, Verdict};
use skillcase_cases::model::{Actor, Case, Delivery, HumanAction, NewCase};
use skillcase_cases::outbox::OutboxStatus;
use skillcase_cases::report::{CaseReport, ReportRange};
use skillcase_cases::store::{CaseFilter, CasePage, CaseTab, CaseWithTimeline, TabCounts};
use skillcase_cases::transition::OpenOutcome;
use skillcase_common::events::DomainEvent;
use skillcase_common::ErrorBody;
use skillcase_guard::MAX_MESSAGE_CHARS;

use crate::quiet::with_plan;
use crate::App;

/// What the agent records about the lead on an open case (SPEC B4 `POST /v1/cases/{id}/events`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseEvent {
    /// The agent asked the lead (what it asked, if it says).
    LeadAsked { text: Option<String> },
    /// The lead stopped answering.
    LeadUnresponsive { note: Option<String> },
    /// The agent cancels the case.
    Cancel { reason: Option<String> },
}

impl App {
    /// One inbox page with the tab counts.
    /// *Mine* means the person at this desktop ([`App::me`]), whatever the caller says.
    pub async fn list_cases(&self, mut filter: CaseFilter) -> Result<CasePage, ErrorBody> {
        self.blocking(move |app| {
            filter.me = Some(crate::assign::me_of(app)?);
            Ok(app.cases.list_cases(&filter)?)
        })
        .await
    }

    /// [`App::list_cases`] for the window's inbox, where the person may be typing a search: a
    /// newer call interrupts this one (which then fails with `superseded`), so the page for the
    /// whole word never waits for the one for its first letter.
    pub async fn list_cases_latest(&self, mut filter: CaseFilter) -> Result<CasePage, ErrorBody> {
        self.blocking(move |app| {
            filter.me = Some(crate::assign::me_of(app)?);
            Ok(app.cases.list_cases_latest(&filter)?)
        })
        .await
    }

    /// The tab counts and the unread badge.
    pub async fn case_counts(&self) -> Result<TabCounts, ErrorBody> {
        self.blocking(|app| Ok(app.cases.tab_counts()?)).await
    }

    /// The handover report (SPEC D5) over the cases opened in `range`: cases per reason per week,
    /// the median time to the first human reply per reason and overall, and reopened cases.
    pub async fn case_report(&self, range: ReportRange) -> Result<CaseReport, ErrorBody> {
        self.blocking(move |app| Ok(app.cases.report(&range)?)).await
    }

    /// One case with its timeline and deliveries, and, while it waits on the customer, when the
    /// reminder goes and when it closes.
    pub async fn get_case(&self, id: String) -> Result<CaseWithTimeline, ErrorBody> {
        self.blocking(move |app| Ok(with_plan(app, app.cases.get_case(&id)?))).await
    }

    /// The case a person names the way they know it: by number (`1042` or `#1042`) or by id, for
    /// front ends that take either (the `skillcase cases` commands). Just the case, without its
    /// timeline; `case_not_found` (with `{number}` or `{id}`) when there is none. Ids are UUIDs,
    /// so a reference made only of digits is always a number.
    pub async fn find_case(&self, reference: String) -> Result<Case, ErrorBody> {
        self.blocking(move |app| {
            let reference = reference.trim();
            let digits = reference.strip_prefix('#').unwrap_or(reference);
            match digits.parse::<i64>() {
                Ok(number) if digits.bytes().all(|b| b.is_ascii_digit()) => {
                    Ok(app.cases.find_case_by_number(number)?)
                }
                _ => Ok(app.cases.get_case(reference)?.case),
            }
        })
        .await
    }

    /// The case as the agent sees it (the local API's `GET /v1/cases/{id}` and MCP's `get_case`):
    /// its timeline and deliveries without the people's internal notes.
    pub async fn get_case_for_agent(&self, id: String) -> Result<CaseWithTimeline, ErrorBody> {
        self.blocking(move |app| Ok(app.cases.get_case(&id)?.for_agent())).await
    }

    /// A person's internal note on the case: on its timeline and in search, never sent to the
    /// agent; the case keeps its status. The change is announced; returns the case as it now
    /// stands.
    pub async fn add_case_note(&self, id: String, text: String) -> Result<CaseWithTimeline, ErrorBody> {
        let person = self.me().await?;
        let case = self
            .blocking(move |app| {
                app.cases.add_note(&id, &text, &person)?;
                Ok(with_plan(app, app.cases.get_case(&id)?))
            })
            .await?;
        self.publish(DomainEvent::CaseChanged { id: case.case.id.clone() });
        Ok(case)
    }

    /// The person opened the case (`read`) or marks it unread again.
    pub async fn mark_case_read(&self, id: String, read: bool) -> Result<(), ErrorBody> {
        let changed = id.clone();
        self.blocking(move |app| Ok(app.cases.set_read(&id, read)?)).await?;
        self.publish(DomainEvent::CaseChanged { id: changed });
        Ok(())
    }

    /// Bulk action on the inbox list: marks the cases read or unread again, all or none, and
    /// announces each.
    pub async fn mark_cases_read(&self, ids: Vec<String>, read: bool) -> Result<(), ErrorBody> {
        let changed = ids.clone();
        self.blocking(move |app| Ok(app.cases.set_read_many(&ids, read)?)).await?;
        for id in changed {
            self.publish(DomainEvent::CaseChanged { id });
        }
        Ok(())
    }

    /// Bulk action on the inbox list: the person cancels the open cases with one reason, all of
    /// them or none (the refusal names the case by number). Returns the cancelled cases.
    pub async fn cancel_cases(&self, ids: Vec<String>, reason: String) -> Result<Vec<Case>, ErrorBody> {
        let person = self.me().await?;
        let cases = self.blocking(move |app| Ok(app.cases.cancel_many(&ids, &person, &reason)?)).await?;
        for case in &cases {
            self.publish(DomainEvent::CaseChanged { id: case.id.clone() });
        }
        Ok(cases)
    }

    /// For resolve-and-next: the case that has waited on the person longest (the top of
    /// *Waiting on you*), other than `except` (the one just answered); `None` when no other waits.
    pub async fn next_case_waiting_on_you(
        &self,
        except: Option<String>,
    ) -> Result<Option<String>, ErrorBody> {
        let filter = CaseFilter { tab: Some(CaseTab::WaitingOnYou), limit: 2, ..CaseFilter::default() };
        let page = self.blocking(move |app| Ok(app.cases.list_cases(&filter)?)).await?;
        Ok(page.items.into_iter().map(|item| item.case.id).find(|id| Some(id) != except.as_ref()))
    }

    /// The person's answer — resolved, need info from the customer, or escalate — with its text:
    /// the transition, its event, the person's read mark and the delivery that relays it in one
    /// transaction, then announced and the delivery worker woken. Returns the case as that
    /// transaction left it.
    pub async fn reply_to_case(
        &self,
        id: String,
        action: HumanAction,
        text: String,
    ) -> Result<CaseWithTimeline, ErrorBody> {
        let person = self.me().await?;
        let case = self
            .blocking(move |app| {
                let (case, _) = app.cases.reply(&id, action, &text, &person)?;
                Ok(with_plan(app, case))
            })
            .await?;
        self.publish(DomainEvent::CaseChanged { id: case.case.id.clone() });
        self.wake_delivery();
        Ok(case)
    }

    /// A person's Retry of a failed or dead delivery, under the same id.
    pub async fn retry_delivery(&self, id: String) -> Result<Delivery, ErrorBody> {
        let delivery = self.blocking(move |app| Ok(app.outbox.retry(&id)?)).await?;
        self.publish(DomainEvent::CaseChanged { id: delivery.case_id.clone() });
        self.wake_delivery();
        Ok(delivery)
    }

    /// Whether replies reach the agent endpoint, for the banner.
    pub async fn outbox_status(&self) -> Result<OutboxStatus, ErrorBody> {
        self.blocking(|app| Ok(app.outbox.status()?)).await
    }

    /// The agent opens a case (or gets the conversation's open one back); a new case is
    /// announced, which also raises the desktop notification.
    pub async fn open_case(&self, new: NewCase) -> Result<OpenOutcome, ErrorBody> {
        let outcome = self.blocking(move |app| Ok(app.cases.open_case(new)?)).await?;
        if !outcome.already_open {
            self.publish(DomainEvent::CaseOpened { id: outcome.case.id.clone() });
        }
        Ok(outcome)
    }

    /// The agent hands back what the lead answered: the case waits on the person again.
    pub async fn provide_case_update(&self, id: String, info: String) -> Result<Case, ErrorBody> {
        let case = self.blocking(move |app| Ok(app.cases.provide_update(&id, &info)?)).await?;
        self.publish(DomainEvent::CaseChanged { id: case.id.clone() });
        Ok(case)
    }

    /// The agent records what happened with the lead, or cancels the case.
    pub async fn record_case_event(&self, id: String, event: CaseEvent) -> Result<Case, ErrorBody> {
        let case = self
            .blocking(move |app| {
                Ok(match event {
                    CaseEvent::LeadAsked { text } => app.cases.record_lead_asked(&id, text.as_deref())?,
                    CaseEvent::LeadUnresponsive { note } => {
                        app.cases.record_lead_unresponsive(&id, note.as_deref())?
                    }
                    CaseEvent::Cancel { reason } => {
                        app.cases.cancel(&id, Actor::Agent, None, reason.as_deref())?
                    }
                })
            })
            .await?;
        self.publish(DomainEvent::CaseChanged { id: case.id.clone() });
        Ok(case)
    }

    /// The guardrail (SPEC B5): may the agent send this message? A case the second veto opens
    /// is announced like any new case. A message over [`MAX_MESSAGE_CHARS`] is refused
    /// (`invalid_input`) before the detector reads it, which bounds the work of one check.
    pub async fn before_send(&self, request: BeforeSend) -> Result<Verdict, ErrorBody> {
        within_reach(&request.message)?;
        let verdict = self
            .blocking(move |app| {
                let calendar = || crate::settings::calendar(app.settings.as_ref());
                let model = app.model_in_use.get(app.guard.as_ref())?;
                Ok(guard::before_send(app.cases.as_ref(), request, &model, &calendar)?)
            })
            .await?;
        if let Some(case) = &verdict.auto_opened_case {
            self.publish(DomainEvent::CaseOpened { id: case.id.clone() });
        }
        Ok(verdict)
    }
}

/// Refuses a message longer than the guardrail reads.
fn within_reach(message: &str) -> Result<(), GuardError> {
    let chars = message.chars().count();
    if chars <= MAX_MESSAGE_CHARS {
        return Ok(());
    }
    Err(GuardError::InvalidInput {
        field: "message",
        reason: format!(
            "is {chars} characters long; the guardrail checks messages of at most {MAX_MESSAGE_CHARS}: send it as shorter messages"
        ),
    })
}
