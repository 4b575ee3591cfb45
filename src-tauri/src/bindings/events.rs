//! `events.ts`: every event the window hears, by name, with its payload type.

use skillcase_application::domain::common::events::DomainEvent;

use super::HEADER;

/// One value of every event, so a new variant must be named here (the match has no wildcard).
fn every_event() -> Vec<DomainEvent> {
    let events = vec![
        DomainEvent::CaseOpened { id: String::new() },
        DomainEvent::CaseChanged { id: String::new() },
        DomainEvent::PromiseOverdue { id: String::new(), number: 0, quote: String::new() },
        DomainEvent::SlaOverdue { id: String::new(), number: 0, target: String::new() },
        DomainEvent::SkillChanged { name: String::new() },
        DomainEvent::SkillRemoved { name: String::new() },
        DomainEvent::ScanProgress { done: 0, total: 0 },
        DomainEvent::SkillsDirStatus { available: true, message: None },
        DomainEvent::SettingsChanged { section: String::new() },
        DomainEvent::McpClientsChanged,
    ];
    for event in &events {
        match event {
            DomainEvent::CaseOpened { .. }
            | DomainEvent::CaseChanged { .. }
            | DomainEvent::PromiseOverdue { .. }
            | DomainEvent::SlaOverdue { .. }
            | DomainEvent::SkillChanged { .. }
            | DomainEvent::SkillRemoved { .. }
            | DomainEvent::ScanProgress { .. }
            | DomainEvent::SkillsDirStatus { .. }
            | DomainEvent::SettingsChanged { .. }
            | DomainEvent::McpClientsChanged => {}
        }
    }
    events
}

pub(super) fn events_ts() -> String {
    let mut entries = Vec::new();
    for event in every_event() {
        let kind = serde_json::to_value(&event).unwrap()["kind"].as_str().unwrap().to_string();
        entries.push(format!("  \"{}\": Extract<DomainEvent, {{ kind: \"{kind}\" }}>;\n", event.name()));
    }
    entries.push(format!("  \"{}\": null;\n", crate::events::LAGGED));
    format!(
        "{HEADER}// Every event the window hears, by name, with its payload.\nimport {{ listen, type UnlistenFn }} from \"@tauri-apps/api/event\";\nimport type {{ DomainEvent }} from \"./DomainEvent\";\n\n\
         /** The payload of each event the shell emits. */\nexport type EventPayloads = {{\n{}}};\n\n\
         /** The name of an event the shell emits. */\nexport type EventName = keyof EventPayloads;\n\n\
         /** Listens to one event with its typed payload. */\nexport function listenTo<N extends EventName>(\n  name: N,\n  handler: (payload: EventPayloads[N]) => void,\n): Promise<UnlistenFn> {{\n  return listen<EventPayloads[N]>(name, (event) => handler(event.payload));\n}}\n",
        entries.concat()
    )
}
