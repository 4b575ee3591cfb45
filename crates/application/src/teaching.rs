//! Teaching the guardrail (SPEC B5): people mark what the agent wrote ("not a promise", "this
//! promised a follow-up"), and *Retrain* rebuilds the detector from the shipped data plus the
//! marks, adopting the new model only if it does not regress. The workspace's guardrail then
//! judges with the adopted model; on a team's database every instance does.

use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use skillcase_cases::marks::{Mark, NewMark, VetoEntry};
use skillcase_cases::{CasesError, GuardRepository};
use skillcase_common::ErrorBody;
use skillcase_guard::model::Model;
use skillcase_guard::retrain::{self, Report};
use ts_rs::TS;

use crate::App;

/// The model the workspace's guardrail judges with, and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardModelStatus")]
pub struct ModelStatus {
    /// When a retrain adopted the model in use (`None`: the shipped model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub adopted_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub adopted_by: Option<String>,
    /// The report that adopted it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub report: Option<Report>,
    /// Marks stored now (a retrain would read them all).
    pub marks: u32,
}

/// The copy of the workspace's model this instance judges with, and the adoption it belongs to,
/// so a model another instance of the team adopted is picked up at the next check.
#[derive(Default)]
pub(crate) struct ModelInUse(Mutex<Option<(Option<String>, Arc<Model>)>>);

impl ModelInUse {
    /// The workspace's model: the adopted one, or the shipped one.
    pub(crate) fn get(&self, guard: &dyn GuardRepository) -> Result<Arc<Model>, CasesError> {
        let stamp = guard.adopted_at()?;
        let mut held = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((at, model)) = held.as_ref() {
            if *at == stamp {
                return Ok(Arc::clone(model));
            }
        }
        let model = match guard.adopted_model()? {
            Some(adopted) => Arc::new(adopted.model),
            None => Arc::new(skillcase_guard::model().clone()),
        };
        *held = Some((stamp, Arc::clone(&model)));
        Ok(model)
    }
}

impl App {
    /// The newest vetoed turns (at most `limit`), newest first, each with the person's mark.
    pub async fn guard_vetoes(&self, limit: i64) -> Result<Vec<VetoEntry>, ErrorBody> {
        self.blocking(move |app| Ok(app.guard.vetoes(limit)?)).await
    }

    /// Every mark, oldest first.
    pub async fn guard_marks(&self) -> Result<Vec<Mark>, ErrorBody> {
        self.blocking(|app| Ok(app.guard.marks()?)).await
    }

    /// Marks a message the agent wrote, as the person at this desktop.
    pub async fn guard_mark(&self, mark: NewMark) -> Result<Mark, ErrorBody> {
        self.blocking(move |app| Ok(app.guard.add_mark(&mark, &app.person)?)).await
    }

    /// Takes a mark back.
    pub async fn guard_unmark(&self, id: i64) -> Result<(), ErrorBody> {
        self.blocking(move |app| Ok(app.guard.remove_mark(id)?)).await
    }

    /// The model the guardrail judges with.
    pub async fn guard_model_status(&self) -> Result<ModelStatus, ErrorBody> {
        self.blocking(|app| {
            let marks = u32::try_from(app.guard.marks()?.len()).unwrap_or(u32::MAX);
            Ok(match app.guard.adopted_model()? {
                Some(adopted) => ModelStatus {
                    adopted_at: Some(adopted.adopted_at),
                    adopted_by: Some(adopted.adopted_by),
                    report: Some(adopted.report),
                    marks,
                },
                None => ModelStatus { adopted_at: None, adopted_by: None, report: None, marks },
            })
        })
        .await
    }

    /// Retrains the detector on the shipped data plus every mark and adopts the new model if it
    /// does not regress ([`retrain::retrain`]); the report says which, with both models' figures.
    /// Takes seconds of one core.
    pub async fn guard_retrain(&self) -> Result<Report, ErrorBody> {
        self.blocking(|app| {
            let marks: Vec<retrain::Mark> = app
                .guard
                .marks()?
                .into_iter()
                .map(|m| retrain::Mark { text: m.text, promise: m.promise })
                .collect();
            let current = app.model_in_use.get(app.guard.as_ref())?;
            let retrained = retrain::retrain(&current, &marks);
            if retrained.report.adopted {
                app.guard.adopt_model(&retrained.model, &retrained.report, &app.person)?;
            }
            Ok(retrained.report)
        })
        .await
    }

    /// The model the workspace's guardrail judges with now (for `skillcase guard MESSAGE`).
    pub async fn guard_model_in_use(&self) -> Result<Arc<Model>, ErrorBody> {
        self.blocking(|app| Ok(app.model_in_use.get(app.guard.as_ref())?)).await
    }

    /// Goes back to the shipped model (the marks stay).
    pub async fn guard_forget_model(&self) -> Result<(), ErrorBody> {
        self.blocking(|app| Ok(app.guard.forget_model()?)).await
    }

    /// Writes every mark to `path` as a labelled file in the guardrail data's format
    /// ([`marks_file`]), whole or not at all; answers how many.
    pub async fn guard_export_marks(&self, path: String) -> Result<usize, ErrorBody> {
        self.blocking(move |app| {
            let marks = app.guard.marks()?;
            crate::export::write_whole(std::path::Path::new(&path), marks_file(&marks).as_bytes())
                .map_err(|e| ErrorBody::new("export_failed", format!("writing {path} failed: {e}")))?;
            Ok(marks.len())
        })
        .await
    }
}

/// The `label lang text` file of `marks` (the columns of `tests/data/guard/FORMAT.md` that a mark
/// has), to share or to add to the training data. A message too short to tell its language is
/// written as English.
pub fn marks_file(marks: &[Mark]) -> String {
    let mut out = String::from("label\tlang\ttext\n");
    for mark in marks {
        let language = match skillcase_guard::detect(&mark.text).language {
            skillcase_guard::Language::PtBr => "pt-BR",
            _ => "en",
        };
        let label = if mark.promise { "promise" } else { "clear" };
        let text = mark.text.replace('\t', " ").replace("\r\n", "\\n").replace('\n', "\\n");
        out.push_str(&format!("{label}\t{language}\t{text}\n"));
    }
    out
}
