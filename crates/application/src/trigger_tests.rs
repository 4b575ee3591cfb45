//! Trigger tests in the window: the library's report (a skill's *Tests* tab and the conflicts
//! view), adding a case from *Try a message* or from an activation, removing one, and the cases
//! an edit in progress would turn from passing to failing or back.

use skillcase_common::ErrorBody;
use skillcase_library::repository::LoggedActivation;
use skillcase_library::trigger_tests::CaseChange;
use skillcase_skill::triggers::{TriggerCase, TriggerReport};

use crate::App;

impl App {
    /// Every served skill's cases, run against the whole library.
    pub async fn trigger_tests(&self) -> Result<TriggerReport, ErrorBody> {
        self.on_library(|lib| Ok(lib.trigger_tests())).await
    }

    /// The skill's latest activations with the messages that fired them (the activity log).
    pub async fn activation_log(&self, name: String) -> Result<Vec<LoggedActivation>, ErrorBody> {
        self.on_library(move |lib| lib.activation_log(&name, 50)).await
    }

    /// Adds a case to a local skill (a new version) and returns the fresh report.
    pub async fn add_trigger_case(
        &self,
        name: String,
        case: TriggerCase,
    ) -> Result<TriggerReport, ErrorBody> {
        self.on_library(move |lib| {
            lib.add_trigger_case(&name, case)?;
            Ok(lib.trigger_tests())
        })
        .await
    }

    /// Removes the case with message `query` from a local skill and returns the fresh report.
    pub async fn remove_trigger_case(&self, name: String, query: String) -> Result<TriggerReport, ErrorBody> {
        self.on_library(move |lib| {
            lib.remove_trigger_case(&name, &query)?;
            Ok(lib.trigger_tests())
        })
        .await
    }

    /// The cases whose verdict saving `text` as `path` would change; nothing is written.
    pub async fn preview_trigger_changes(
        &self,
        name: String,
        path: String,
        text: String,
    ) -> Result<Vec<CaseChange>, ErrorBody> {
        self.on_library(move |lib| lib.preview_trigger_changes(&name, &path, &text)).await
    }
}
