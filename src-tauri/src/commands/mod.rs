//! Tauri commands, one file per screen area. Each is a one-liner over the application layer.

pub mod app;
pub mod cases;
pub mod catalog;
pub mod dialog;
pub mod editing;
pub mod guard;
pub mod install;
pub mod mcp;
pub mod replies;
pub mod settings;
pub mod skills;
pub mod team;

/// Every command's declaration, for the generated TypeScript bindings.
#[cfg(test)]
pub fn signatures() -> Vec<crate::ipc::Signature> {
    [app::signatures(), cases::signatures(), catalog::signatures(), dialog::signatures()]
        .into_iter()
        .chain([
            editing::signatures(),
            guard::signatures(),
            install::signatures(),
            mcp::signatures(),
            replies::signatures(),
            settings::signatures(),
            skills::signatures(),
            team::signatures(),
        ])
        .flatten()
        .collect()
}
