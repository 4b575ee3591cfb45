//! `skillcase cases list|show|reply|note|assign|take`: the inbox from a terminal or a script, over the same
//! application functions as the window's inbox (`list_cases`, `get_case`, `reply_to_case`,
//! `add_case_note`, `assign_cases`, `take_case`). A case is named by its number (`1042` or `#1042`) or its id; the
//! application finds it ([`App::find_case`]). Every command takes `--data-dir D` and
//! `--format text|json` ([`Inbox`]); a command acting on one case takes it as [`CaseRef`], so
//! each is one variant and one function.
//!
//! Exit 0 on success; 1 on a refusal, printed as `code: message` on stderr, or in JSON as
//! `{"error": {code, message, details}}` on stdout like the other subcommands; 2 on bad usage.
//! A reply is queued in the outbox exactly as from the window; the command does not wait for
//! the delivery (the app or `skillcase serve` sends it).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;
use skillcase_application::App;
use skillcase_cases::model::{Case, CaseEvent, Delivery, EventKind, HumanAction};
use skillcase_cases::reason::HandoverReason;
use skillcase_cases::store::{
    CaseFilter, CasePage, CaseTab, CaseView, CaseWithTimeline, DEFAULT_PAGE, MAX_PAGE,
};
use skillcase_common::ErrorBody;

use crate::format::Format;

/// Arguments of `skillcase cases`.
#[derive(Debug, clap::Args)]
pub struct CasesArgs {
    #[command(subcommand)]
    command: CasesCommand,
}

#[derive(Debug, clap::Subcommand)]
enum CasesCommand {
    /// One inbox page: number, status, reason, title and since when each case waits.
    List(ListArgs),
    /// One case with its context, timeline (internal notes included) and deliveries.
    Show(ShowArgs),
    /// Answer a case as from the window: the status changes and the reply is queued for the agent.
    Reply(ReplyArgs),
    /// Add an internal note to a case's timeline (never sent to the agent).
    Note(NoteArgs),
    /// Give an open case to someone (`--to NAME`), or leave it to anyone (`--nobody`).
    Assign(AssignArgs),
    /// Take an open case: assign it to you (Settings' You name, else the system user).
    Take(TakeArgs),
}

/// What every `cases` command (and `guard`'s teaching commands) takes.
#[derive(Debug, clap::Args)]
pub struct Inbox {
    /// The data directory whose inbox to use (default: the usual one).
    #[arg(long, value_name = "D")]
    data_dir: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The one case a command acts on.
#[derive(Debug, clap::Args)]
pub struct CaseRef {
    /// The case's number (`1042` or `#1042`) or its id.
    #[arg(value_name = "NUMBER|ID")]
    case: String,
}

/// The inbox tabs, as the command line names them.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Tab {
    /// Waiting on you (`awaiting_human`).
    Waiting,
    /// Waiting on the customer (`awaiting_lead`).
    Customer,
    /// Resolved, escalated or cancelled.
    Closed,
}

impl From<Tab> for CaseTab {
    fn from(tab: Tab) -> CaseTab {
        match tab {
            Tab::Waiting => CaseTab::WaitingOnYou,
            Tab::Customer => CaseTab::WaitingOnCustomer,
            Tab::Closed => CaseTab::Closed,
        }
    }
}

/// Whose cases `list` shows, as the command line names them.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum View {
    /// Every case.
    All,
    /// The cases assigned to you.
    Mine,
    /// The cases nobody has taken.
    Unassigned,
}

impl From<View> for CaseView {
    fn from(view: View) -> CaseView {
        match view {
            View::All => CaseView::All,
            View::Mine => CaseView::Mine,
            View::Unassigned => CaseView::Unassigned,
        }
    }
}

/// Arguments of `skillcase cases list`.
#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Only the cases of one tab (default: every case, open ones first).
    #[arg(long, value_enum)]
    tab: Option<Tab>,
    /// Full-text search (accent-insensitive, words as prefixes), or a case number.
    #[arg(long, value_name = "TEXT")]
    search: Option<String>,
    /// Only the cases the AI handed over for this reason.
    #[arg(long, value_name = "R", value_parser = reason_parser())]
    reason: Option<HandoverReason>,
    /// Whose cases: all (default), yours, or nobody's.
    #[arg(long, value_enum)]
    view: Option<View>,
    /// How many cases to show.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PAGE,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_PAGE)))]
    limit: u32,
    #[command(flatten)]
    inbox: Inbox,
}

/// Arguments of `skillcase cases show`.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    #[command(flatten)]
    case: CaseRef,
    #[command(flatten)]
    inbox: Inbox,
}

/// A person's answer, as the command line names it.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Action {
    /// The case is resolved.
    Resolved,
    /// The agent must ask the customer for more.
    #[value(name = "need_lead_info")]
    NeedLeadInfo,
    /// The case goes to another team.
    Escalate,
}

impl From<Action> for HumanAction {
    fn from(action: Action) -> HumanAction {
        match action {
            Action::Resolved => HumanAction::Resolved,
            Action::NeedLeadInfo => HumanAction::NeedLeadInfo,
            Action::Escalate => HumanAction::Escalate,
        }
    }
}

/// Arguments of `skillcase cases reply`.
#[derive(Debug, clap::Args)]
pub struct ReplyArgs {
    #[command(flatten)]
    case: CaseRef,
    /// What the answer does to the case.
    #[arg(long, value_enum)]
    action: Action,
    /// The reply the agent relays.
    #[arg(long, value_name = "TEXT")]
    text: String,
    #[command(flatten)]
    inbox: Inbox,
}

/// Arguments of `skillcase cases note`.
#[derive(Debug, clap::Args)]
pub struct NoteArgs {
    #[command(flatten)]
    case: CaseRef,
    /// The note.
    #[arg(long, value_name = "TEXT")]
    text: String,
    #[command(flatten)]
    inbox: Inbox,
}

/// Arguments of `skillcase cases assign`.
#[derive(Debug, clap::Args)]
#[group(required = true, multiple = false, args = ["to", "nobody"])]
pub struct AssignArgs {
    #[command(flatten)]
    case: CaseRef,
    /// The person who takes the case (their name as their Settings say).
    #[arg(long, value_name = "NAME")]
    to: Option<String>,
    /// Leave the case to anyone.
    #[arg(long)]
    nobody: bool,
    #[command(flatten)]
    inbox: Inbox,
}

/// Arguments of `skillcase cases take`.
#[derive(Debug, clap::Args)]
pub struct TakeArgs {
    #[command(flatten)]
    case: CaseRef,
    #[command(flatten)]
    inbox: Inbox,
}

/// Parses a handover reason by its snake_case name, listing them in `--help` and errors.
fn reason_parser() -> impl clap::builder::TypedValueParser<Value = HandoverReason> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(HandoverReason::ALL.map(HandoverReason::as_str))
        .map(|name| HandoverReason::parse(&name).expect("a listed reason"))
}

/// Runs the subcommand.
pub fn run(args: CasesArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        CasesCommand::List(args) => {
            let filter = CaseFilter {
                tab: args.tab.map(CaseTab::from),
                search: args.search,
                reason: args.reason,
                view: args.view.map(CaseView::from),
                limit: args.limit,
                ..CaseFilter::default()
            };
            let page = on_app(&args.inbox, |app| async move { app.list_cases(filter).await })?;
            args.inbox.finish(page, print_page)
        }
        CasesCommand::Show(args) => {
            let reference = args.case.case;
            let case = on_app(&args.inbox, |app| async move {
                let case = app.find_case(reference).await?;
                app.get_case(case.id).await
            })?;
            args.inbox.finish(case, print_case)
        }
        CasesCommand::Reply(args) => {
            let (reference, action, text) = (args.case.case, args.action.into(), args.text);
            let replied = on_app(&args.inbox, |app| async move {
                let case = app.find_case(reference).await?;
                app.reply_to_case(case.id, action, text).await
            })?;
            args.inbox.finish(replied.map(Replied::of), print_replied)
        }
        CasesCommand::Note(args) => {
            let (reference, text) = (args.case.case, args.text);
            let case = on_app(&args.inbox, |app| async move {
                let case = app.find_case(reference).await?;
                app.add_case_note(case.id, text).await
            })?;
            args.inbox.finish(case, |out, case| {
                writeln!(
                    out,
                    "note added to #{} (on its timeline, never sent to the agent)",
                    case.case.number
                )
            })
        }
        CasesCommand::Assign(args) => {
            let (reference, to) = (args.case.case, args.to);
            let case = on_app(&args.inbox, |app| async move {
                let case = app.find_case(reference).await?;
                Ok(app.assign_cases(vec![case.id], to).await?.remove(0))
            })?;
            args.inbox.finish(case, print_assigned)
        }
        CasesCommand::Take(args) => {
            let reference = args.case.case;
            let case = on_app(&args.inbox, |app| async move {
                let case = app.find_case(reference).await?;
                app.take_case(case.id).await
            })?;
            args.inbox.finish(case, print_assigned)
        }
    }
}

fn print_assigned(out: &mut dyn Write, case: &Case) -> std::io::Result<()> {
    match &case.assignee {
        Some(name) => writeln!(out, "#{} assigned to {name}", case.number),
        None => writeln!(out, "#{} unassigned", case.number),
    }
}

/// Opens the data directory's application (nothing in the background) and runs `work` on it.
pub(crate) fn on_app<T, F, Fut>(inbox: &Inbox, work: F) -> anyhow::Result<Result<T, ErrorBody>>
where
    F: FnOnce(App) -> Fut,
    Fut: std::future::Future<Output = Result<T, ErrorBody>>,
{
    App::block_on(async {
        let app = crate::workspace::open(inbox.data_dir.clone(), None).await?;
        anyhow::Ok(work(app).await)
    })
}

impl Inbox {
    /// Prints the result in the chosen format: the value (JSON, or `text`), or the refusal.
    pub(crate) fn finish<T: Serialize>(
        &self,
        result: Result<T, ErrorBody>,
        text: impl FnOnce(&mut dyn Write, &T) -> std::io::Result<()>,
    ) -> anyhow::Result<ExitCode> {
        let mut stdout = std::io::stdout().lock();
        match (result, self.format) {
            (Ok(value), Format::Json) => {
                serde_json::to_writer_pretty(&mut stdout, &value)?;
                writeln!(stdout)?;
                Ok(ExitCode::SUCCESS)
            }
            (Ok(value), Format::Text) => {
                drop(stdout);
                text(&mut crate::terminal::stdout(), &value)?;
                Ok(ExitCode::SUCCESS)
            }
            (Err(error), Format::Json) => {
                serde_json::to_writer_pretty(&mut stdout, &serde_json::json!({ "error": error }))?;
                writeln!(stdout)?;
                Ok(ExitCode::from(1))
            }
            (Err(error), Format::Text) => {
                writeln!(crate::terminal::stderr(), "{}: {}", error.code, error.message)?;
                Ok(ExitCode::from(1))
            }
        }
    }
}

/// What `reply` prints: the case as it now stands, and the delivery queued for the agent.
#[derive(Serialize)]
struct Replied {
    #[serde(flatten)]
    case: CaseWithTimeline,
    /// The delivery that relays this reply (the one on the reply's event).
    queued: Option<Delivery>,
}

impl Replied {
    fn of(case: CaseWithTimeline) -> Replied {
        let reply = case.events.iter().rev().find(|e| e.kind == EventKind::HumanReplied).map(|e| e.seq);
        let queued = case.deliveries.iter().find(|d| Some(d.event_seq) == reply).cloned();
        Replied { case, queued }
    }
}

fn print_replied(out: &mut dyn Write, replied: &Replied) -> std::io::Result<()> {
    let case = &replied.case.case;
    writeln!(out, "replied to #{}: the case is now {}", case.number, case.status.as_str())?;
    if let Some(d) = &replied.queued {
        writeln!(
            out,
            "queued delivery {} ({}) for the agent endpoint; the app or `skillcase serve` sends it",
            d.id,
            d.action.as_str()
        )?;
    }
    Ok(())
}

/// The longest title the list shows before cutting it with `…`.
const TITLE_WIDTH: usize = 48;

fn print_page(out: &mut dyn Write, page: &CasePage) -> std::io::Result<()> {
    if page.items.is_empty() {
        writeln!(out, "no cases")?;
    } else {
        let header = ["NUMBER", "STATUS", "REASON", "TITLE", "WAITING SINCE (UTC)"].map(String::from);
        let rows: Vec<[String; 5]> = page
            .items
            .iter()
            .map(|item| {
                let case = &item.case;
                [
                    format!("#{}", case.number),
                    case.status.as_str().to_string(),
                    case.reason.as_str().to_string(),
                    // Escaped before it is measured, so the columns stay aligned.
                    cut(&crate::terminal::escape(&case.title), TITLE_WIDTH),
                    case.waiting_since.as_deref().map_or_else(|| "-".to_string(), minute),
                ]
            })
            .collect();
        let mut widths = [0usize; 5];
        for row in std::iter::once(&header).chain(&rows) {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.chars().count());
            }
        }
        for row in std::iter::once(&header).chain(&rows) {
            let mut line = String::new();
            for (i, (cell, width)) in row.iter().zip(widths).enumerate() {
                line.push_str(cell);
                if i + 1 < row.len() {
                    line.extend(std::iter::repeat_n(' ', width - cell.chars().count() + 2));
                }
            }
            writeln!(out, "{line}")?;
        }
    }
    let c = &page.counts;
    writeln!(
        out,
        "{} of {} cases (waiting on you {}, waiting on customer {}, closed {})",
        page.items.len(),
        page.total,
        c.waiting_on_you,
        c.waiting_on_customer,
        c.closed
    )
}

fn print_case(out: &mut dyn Write, shown: &CaseWithTimeline) -> std::io::Result<()> {
    let case = &shown.case;
    writeln!(out, "#{} {}", case.number, case.title)?;
    print_facts(out, case)?;
    section(out, "Summary", std::slice::from_ref(&case.summary))?;
    if let Some(blocker) = &case.blocker {
        section(out, "Blocker", std::slice::from_ref(blocker))?;
    }
    let context: Vec<String> = case
        .context
        .iter()
        .map(|m| match &m.at {
            Some(at) => format!("{} {}: {}", second(at), m.role, m.text),
            None => format!("{}: {}", m.role, m.text),
        })
        .collect();
    section(out, "Context", &context)?;
    let promises: Vec<String> = shown
        .promises
        .iter()
        .map(|p| {
            let due = p.due_at.as_deref().map(|at| format!(", due {}", minute(at))).unwrap_or_default();
            let kept = if p.kept { "kept" } else { "open" };
            format!("{} \"{}\" ({kept}{due})", second(&p.made_at), p.quote)
        })
        .collect();
    if !promises.is_empty() {
        section(out, "Promises", &promises)?;
    }
    let timeline: Vec<String> = shown.events.iter().map(event_line).collect();
    section(out, "Timeline", &timeline)?;
    let deliveries: Vec<String> = shown
        .deliveries
        .iter()
        .map(|d| {
            let error = d.last_error.as_deref().map(|e| format!(", last error: {e}")).unwrap_or_default();
            format!(
                "{} {} {} {} ({} attempts{error})",
                second(&d.created_at),
                d.id,
                d.action.as_str(),
                d.state.as_str(),
                d.attempts
            )
        })
        .collect();
    section(out, "Deliveries", &deliveries)
}

/// The case's lines under its title: status, reason, lead, when, ids.
fn print_facts(out: &mut dyn Write, case: &Case) -> std::io::Result<()> {
    writeln!(out, "status: {}", case.status.as_str())?;
    writeln!(out, "reason: {}", case.reason.as_str())?;
    let lead = &case.lead;
    let about: Vec<&str> = [lead.channel.as_deref(), lead.contact.as_deref()].into_iter().flatten().collect();
    let name = lead.name.as_deref().unwrap_or("(no name)");
    if about.is_empty() {
        writeln!(out, "lead: {name}")?;
    } else {
        writeln!(out, "lead: {name} ({})", about.join(", "))?;
    }
    writeln!(out, "opened: {} UTC", second(&case.opened_at))?;
    if let Some(at) = &case.waiting_since {
        writeln!(out, "waiting since: {} UTC", second(at))?;
    }
    if let Some(at) = &case.closed_at {
        writeln!(out, "closed: {} UTC", second(at))?;
    }
    if let Some(at) = &case.sla.next_due_at {
        writeln!(out, "next target due: {} UTC", minute(at))?;
    }
    writeln!(out, "assignee: {}", case.assignee.as_deref().unwrap_or("(nobody)"))?;
    writeln!(out, "conversation: {}", case.conversation_id)?;
    if let Some(agent) = &case.agent_id {
        writeln!(out, "agent: {agent}")?;
    }
    writeln!(out, "id: {}", case.id)
}

/// A blank line, the heading, then each line indented; `(none)` when there is none.
fn section(out: &mut dyn Write, heading: &str, lines: &[String]) -> std::io::Result<()> {
    writeln!(out, "\n{heading}")?;
    if lines.is_empty() {
        writeln!(out, "  (none)")?;
    }
    for line in lines {
        writeln!(out, "  {}", line.replace('\n', "\n  "))?;
    }
    Ok(())
}

/// One timeline line: when, what, who, and the words that came with it.
fn event_line(event: &CaseEvent) -> String {
    let who = event.actor_name.as_deref().unwrap_or(event.actor.as_str());
    let field = |key: &str| event.payload.get(key).and_then(|v| v.as_str());
    let said = ["text", "info", "asked", "note", "reason", "quote", "error"].into_iter().find_map(field);
    let what = match (field("action"), said) {
        (Some(action), Some(said)) => format!(": {action}: {said}"),
        (Some(action), None) => format!(": {action}"),
        (None, Some(said)) => format!(": {said}"),
        (None, None) => String::new(),
    };
    format!("{} {} by {who}{what}", second(&event.at), event.kind.as_str())
}

/// An RFC 3339 time to the second, as `2026-12-03 07:00:00`.
fn second(at: &str) -> String {
    at.get(..19).unwrap_or(at).replace('T', " ")
}

/// An RFC 3339 time to the minute, as `2026-12-03 07:00`.
fn minute(at: &str) -> String {
    at.get(..16).unwrap_or(at).replace('T', " ")
}

/// `text` cut to `width` characters, the last one `…` when cut.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(width - 1).collect();
    cut.push('…');
    cut
}
