//! Desktop notifications: one for each new case (SPEC C1) and one when a promise the agent made
//! falls due with the case still open. They listen on the domain bus like the window forwarder
//! does; a notification that cannot be shown (no notification daemon, as under Xvfb) is dropped
//! silently, because the inbox itself already shows the case.

use skillcase_application::alerts::CaseAlert;
use skillcase_application::domain::common::events::{DomainEvent, EventBus};
use tauri::{AppHandle, Manager};
use tauri_plugin_notification::NotificationExt;
use tokio::sync::broadcast::error::RecvError;

use crate::state::AppState;

/// Starts the task that notifies about each new case (or case assigned to the person, as their
/// choice in Settings → You says), `PromiseOverdue` and `SlaOverdue`; it ends when the bus is
/// dropped.
pub fn notify_new_cases(bus: &EventBus, app: AppHandle) {
    let mut events = bus.subscribe();
    tauri::async_runtime::spawn(async move {
        let mut told = std::collections::HashSet::new();
        loop {
            match events.recv().await {
                Ok(event @ (DomainEvent::CaseOpened { .. } | DomainEvent::CaseChanged { .. })) => {
                    show_alert(&app, &event, &mut told).await
                }
                Ok(DomainEvent::PromiseOverdue { number, quote, .. }) => {
                    show_overdue(&app, number, quote).await
                }
                Ok(DomainEvent::SlaOverdue { number, target, .. }) => {
                    show_target_overdue(&app, number, &target).await
                }
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => break,
            }
        }
    });
}

/// Shows `#1042 Title` with the summary for a new case, or `#1042 assigned to you`, when the
/// person's choice calls for it; each assignment once (`told` keeps their events).
async fn show_alert(app: &AppHandle, event: &DomainEvent, told: &mut std::collections::HashSet<i64>) {
    let state = app.state::<AppState>();
    match state.app().case_alert(event).await {
        Some(CaseAlert::Opened(case)) => show(app, format!("#{} {}", case.number, case.title), case.summary),
        Some(CaseAlert::AssignedToYou { case, seq }) if told.insert(seq) => {
            let portuguese = state.app().speaks_portuguese().await;
            show(app, assigned_title(case.number, portuguese), case.title)
        }
        _ => {}
    }
}

fn assigned_title(number: i64, portuguese: bool) -> String {
    if portuguese {
        format!("#{number}: atribuído a você")
    } else {
        format!("#{number}: assigned to you")
    }
}

/// Shows `#1042: promise overdue` with the words the customer was given.
async fn show_overdue(app: &AppHandle, number: i64, quote: String) {
    let portuguese = app.state::<AppState>().app().speaks_portuguese().await;
    show(app, overdue_title(number, portuguese), format!("“{quote}”"));
}

fn overdue_title(number: i64, portuguese: bool) -> String {
    if portuguese {
        format!("#{number}: promessa vencida")
    } else {
        format!("#{number}: promise overdue")
    }
}

/// Shows `#1042: first reply overdue` (or resolution) when a response-time target falls due.
async fn show_target_overdue(app: &AppHandle, number: i64, target: &str) {
    let portuguese = app.state::<AppState>().app().speaks_portuguese().await;
    show(app, target_overdue_title(number, target, portuguese), String::new());
}

fn target_overdue_title(number: i64, target: &str, portuguese: bool) -> String {
    match (target, portuguese) {
        ("first_reply", true) => format!("#{number}: primeira resposta atrasada"),
        ("first_reply", false) => format!("#{number}: first reply overdue"),
        (_, true) => format!("#{number}: resolução atrasada"),
        (_, false) => format!("#{number}: resolution overdue"),
    }
}

/// Shows the notification. The body is the customer's and the agent's words (a case's summary or
/// title, a promise's quote): it is escaped as markup, because notification servers on Linux read
/// the body as markup (`<a href>`, `<img>`, `<b>`), and words from outside must show as written
/// rather than as a link or an image fetched from anywhere.
fn show(app: &AppHandle, title: String, body: String) {
    let _ = app.notification().builder().title(title).body(notification_body(&body)).show();
}

/// `text` as a notification body: markup escaped where the notification server reads markup (the
/// freedesktop servers), as it is elsewhere (macOS and Windows show the body as plain text).
fn notification_body(text: &str) -> String {
    if cfg!(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd", target_os = "netbsd")) {
        markup_escaped(text)
    } else {
        text.to_string()
    }
}

/// `text` with the characters markup gives meaning to written as entities (`&amp;`, `&lt;`,
/// `&gt;`, `&quot;`, `&apos;`), so a `<a href=…>` in a case summary is shown, never followed.
fn markup_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{assigned_title, markup_escaped, overdue_title, target_overdue_title};

    #[test]
    fn markup_in_a_case_summary_or_a_quote_is_shown_as_written_never_rendered() {
        let summary = r#"Refund <a href="https://evil.example/x">click</a> <img src="https://evil.example/t.png"/> & more"#;
        assert_eq!(
            markup_escaped(summary),
            "Refund &lt;a href=&quot;https://evil.example/x&quot;&gt;click&lt;/a&gt; &lt;img src=&quot;https://evil.example/t.png&quot;/&gt; &amp; more"
        );
        assert_eq!(markup_escaped("“I'll call you by Friday”"), "“I&apos;ll call you by Friday”");
    }

    #[test]
    fn assigned_title_names_the_case_in_the_persons_language() {
        assert_eq!(assigned_title(1042, false), "#1042: assigned to you");
        assert_eq!(assigned_title(7, true), "#7: atribuído a você");
    }

    #[test]
    fn target_overdue_title_names_the_case_and_the_target_in_the_persons_language() {
        assert_eq!(target_overdue_title(1042, "first_reply", false), "#1042: first reply overdue");
        assert_eq!(target_overdue_title(7, "resolution", true), "#7: resolução atrasada");
    }

    #[test]
    fn overdue_title_names_the_case_in_the_persons_language() {
        assert_eq!(overdue_title(1042, false), "#1042: promise overdue");
        assert_eq!(overdue_title(7, true), "#7: promessa vencida");
    }
}
