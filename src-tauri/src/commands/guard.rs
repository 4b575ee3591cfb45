//! Teaching the guardrail (SPEC B5): the veto log, people's marks on the agent's messages, and
//! *Retrain*.

use crate::ipc::ipc;
use skillcase_application::domain::cases::marks::{Mark, NewMark, VetoEntry};
use skillcase_application::domain::guard::retrain::Report;
use skillcase_application::teaching::ModelStatus;
use tauri::State;

use crate::state::AppState;

ipc! {
    /// The newest vetoed turns (at most `limit`), newest first, each with its mark.
    fn guard_vetoes(state: State<'_, AppState>, limit: i64) -> Vec<VetoEntry> {
        Ok(state.app().guard_vetoes(limit).await?)
    }

    /// Every mark, oldest first.
    fn guard_marks(state: State<'_, AppState>) -> Vec<Mark> {
        Ok(state.app().guard_marks().await?)
    }

    /// Marks a message the agent wrote: "not a promise" or "this promised a follow-up".
    fn guard_mark(state: State<'_, AppState>, mark: NewMark) -> Mark {
        Ok(state.app().guard_mark(mark).await?)
    }

    /// Takes a mark back.
    fn guard_unmark(state: State<'_, AppState>, id: i64) -> () {
        Ok(state.app().guard_unmark(id).await?)
    }

    /// The model the guardrail judges with, and how many marks there are.
    fn guard_model_status(state: State<'_, AppState>) -> ModelStatus {
        Ok(state.app().guard_model_status().await?)
    }

    /// Retrains with every mark; adopts the new model only if it does not regress.
    fn guard_retrain(state: State<'_, AppState>) -> Report {
        Ok(state.app().guard_retrain().await?)
    }

    /// Goes back to the shipped model; the marks stay.
    fn guard_forget_model(state: State<'_, AppState>) -> () {
        Ok(state.app().guard_forget_model().await?)
    }

    /// Writes every mark to the labelled file at `path`; answers how many.
    fn guard_export_marks(state: State<'_, AppState>, path: String) -> u32 {
        Ok(state.app().guard_export_marks(path).await? as u32)
    }
}
