//! `skillcase guard mark|unmark|marks|retrain|reset`: teaching the workspace's guardrail from a
//! terminal, over the application functions the window's marks and *Retrain* use
//! (`guard_mark`, `guard_unmark`, `guard_marks`, `guard_export_marks`, `guard_retrain`,
//! `guard_forget_model`). On a team database the marks and the model are the team's.
//!
//! Exit 0 on success; 1 on a refusal, printed as `code: message` (or `{"error": …}` in JSON);
//! `retrain` exits 0 whether or not the new model was adopted: the report says which.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use skillcase_application::domain::cases::marks::{Mark, MarkSource, NewMark};
use skillcase_application::domain::guard::retrain::{Figures, Refusal, Report};
use skillcase_application::domain::guard::Language;

use crate::cases::{on_app, Inbox};

/// The teaching commands of `skillcase guard`.
#[derive(Debug, clap::Subcommand)]
pub enum Teach {
    /// Mark a message the agent wrote: `--promise` (it promised a follow-up) or `--clear` (it did not).
    Mark(MarkArgs),
    /// Take a mark back, by its id (`skillcase guard marks` lists them).
    Unmark(UnmarkArgs),
    /// List the marks, or write them as a labelled file (`--export FILE`).
    Marks(MarksArgs),
    /// Retrain the model with every mark; it is adopted only if it does not regress.
    Retrain(Plain),
    /// Go back to the shipped model (the marks stay).
    Reset(Plain),
}

#[derive(Debug, clap::Args)]
pub struct MarkArgs {
    /// The message as the agent wrote it.
    text: String,
    /// It promised a person's follow-up.
    #[arg(long, conflicts_with = "clear", required_unless_present = "clear")]
    promise: bool,
    /// It did not.
    #[arg(long)]
    clear: bool,
    /// The conversation it belongs to.
    #[arg(long, value_name = "ID")]
    conversation: Option<String>,
    #[command(flatten)]
    inbox: Inbox,
}

#[derive(Debug, clap::Args)]
pub struct UnmarkArgs {
    /// The mark's id.
    id: i64,
    #[command(flatten)]
    inbox: Inbox,
}

#[derive(Debug, clap::Args)]
pub struct MarksArgs {
    /// Write the marks to FILE (`label lang text`, tab-separated) instead of listing them.
    #[arg(long, value_name = "FILE")]
    export: Option<PathBuf>,
    #[command(flatten)]
    inbox: Inbox,
}

#[derive(Debug, clap::Args)]
pub struct Plain {
    #[command(flatten)]
    inbox: Inbox,
}

pub fn run(teach: Teach) -> anyhow::Result<ExitCode> {
    match teach {
        Teach::Mark(args) => {
            let mark = NewMark {
                text: args.text,
                promise: args.promise,
                source: MarkSource::Conversation,
                conversation_id: args.conversation,
            };
            let stored = on_app(&args.inbox, |app| async move { app.guard_mark(mark).await })?;
            args.inbox.finish(stored, |out, mark| writeln!(out, "marked {}", line(mark)))
        }
        Teach::Unmark(args) => {
            let id = args.id;
            let done = on_app(&args.inbox, |app| async move { app.guard_unmark(id).await })?;
            args.inbox.finish(done, |out, ()| writeln!(out, "mark {id} taken back"))
        }
        Teach::Marks(args) => match args.export {
            Some(path) => {
                let shown = path.display().to_string();
                let path = path.to_string_lossy().into_owned();
                let written = on_app(&args.inbox, |app| async move { app.guard_export_marks(path).await })?;
                args.inbox.finish(written, |out, n| writeln!(out, "{n} marks written to {shown}"))
            }
            None => {
                let marks = on_app(&args.inbox, |app| async move { app.guard_marks().await })?;
                args.inbox.finish(marks, |out, marks| {
                    if marks.is_empty() {
                        return writeln!(out, "no marks yet");
                    }
                    marks.iter().try_for_each(|mark| writeln!(out, "{}", line(mark)))
                })
            }
        },
        Teach::Retrain(args) => {
            let report = on_app(&args.inbox, |app| async move { app.guard_retrain().await })?;
            args.inbox.finish(report, print_report)
        }
        Teach::Reset(args) => {
            let done = on_app(&args.inbox, |app| async move { app.guard_forget_model().await })?;
            args.inbox.finish(done, |out, ()| writeln!(out, "the guardrail uses the shipped model again"))
        }
    }
}

/// `12  clear    Ana  "O estorno constará em fatura…"`
fn line(mark: &Mark) -> String {
    let verdict = if mark.promise { "promise" } else { "clear" };
    format!("{:>4}  {verdict:<7}  {}  {:?}", mark.id, mark.marked_by, mark.text)
}

fn print_report(out: &mut dyn Write, report: &Report) -> std::io::Result<()> {
    writeln!(
        out,
        "{} marks: {} trained on, {} held out to measure both models",
        report.marks, report.trained_on, report.held_out
    )?;
    writeln!(out, "{:<26}  {:<34}  retrained", "", "in use")?;
    let rows: [(&str, Figures, Figures); 3] = [
        ("blind split, English", report.before.blind_en, report.after.blind_en),
        ("blind split, Portuguese", report.before.blind_pt_br, report.after.blind_pt_br),
        ("held-out marks", report.before.held_out_marks, report.after.held_out_marks),
    ];
    for (name, before, after) in rows {
        writeln!(out, "{name:<26}  {:<34}  {}", figures(&before), figures(&after))?;
    }
    if report.adopted {
        return writeln!(out, "adopted: the guardrail now judges with the retrained model");
    }
    writeln!(out, "not adopted: the guardrail keeps the model in use")?;
    report.refusals.iter().try_for_each(|refusal| writeln!(out, "  {}", refusal_line(refusal)))
}

/// `caught 251/260, false alarms 4/260`
fn figures(f: &Figures) -> String {
    format!("caught {}/{}, false alarms {}/{}", f.caught, f.promises, f.false_alarms, f.clear)
}

fn refusal_line(refusal: &Refusal) -> String {
    let language = |l: &Language| match l {
        Language::PtBr => "Portuguese",
        _ => "English",
    };
    match refusal {
        Refusal::BlindMistakes { language: l, before, after } => {
            format!(
                "{after} mistakes on the {} blind split, against {before} with the model in use",
                language(l)
            )
        }
        Refusal::HeldOutMarks { before, after } => {
            format!("{after} mistakes on the held-out marks, against {before} with the model in use")
        }
    }
}
