//! Saved replies (SPEC D5): Settings lists, adds, changes, deletes, imports and exports them;
//! the reply box's picker asks which fit what is being typed, already rendered for the case.

use std::path::{Path, PathBuf};

use skillcase_cases::replies::pick::PickFilter;
use skillcase_cases::replies::template::{self, Person};
use skillcase_cases::replies::{file, ImportOutcome, PickedReply, SavedReply, SavedReplyInput};
use skillcase_cases::CasesError;
use skillcase_common::ErrorBody;

use crate::app::Inner;
use crate::settings;
use crate::App;

impl App {
    /// Every saved reply, by title.
    pub async fn saved_replies(&self) -> Result<Vec<SavedReply>, ErrorBody> {
        self.blocking(|app| Ok(app.replies.list()?)).await
    }

    /// Adds a saved reply; `invalid_saved_reply` or `unknown_variable` store nothing.
    pub async fn create_saved_reply(&self, input: SavedReplyInput) -> Result<SavedReply, ErrorBody> {
        self.blocking(move |app| Ok(app.replies.create(input)?)).await
    }

    /// Changes a saved reply; refused like a new one, or `saved_reply_not_found`.
    pub async fn update_saved_reply(
        &self,
        id: String,
        input: SavedReplyInput,
    ) -> Result<SavedReply, ErrorBody> {
        self.blocking(move |app| Ok(app.replies.update(&id, input)?)).await
    }

    /// Deletes a saved reply; `saved_reply_not_found` when it is already gone.
    pub async fn delete_saved_reply(&self, id: String) -> Result<(), ErrorBody> {
        self.blocking(move |app| Ok(app.replies.delete(&id)?)).await
    }

    /// What the picker offers on the case for `filter` (the typed query, the chosen answer, the
    /// UI language), best first, each rendered with the case and the person at this desktop.
    pub async fn pick_saved_replies(
        &self,
        case_id: String,
        filter: PickFilter,
    ) -> Result<Vec<PickedReply>, ErrorBody> {
        self.blocking(move |app| {
            let case = app.cases.get_case(&case_id)?.case;
            let person = person(app)?;
            let picked = app.replies.pick(&filter)?;
            Ok(picked
                .into_iter()
                .map(|reply| PickedReply {
                    text: template::render(&reply.body, &case, &person),
                    id: reply.id,
                    title: reply.title,
                    action: reply.action,
                    language: reply.language,
                })
                .collect())
        })
        .await
    }

    /// Writes every saved reply to the JSON file at `path` (replacing it); returns how many.
    pub async fn export_saved_replies(&self, path: String) -> Result<usize, ErrorBody> {
        self.blocking(move |app| {
            let replies = app.replies.list()?;
            let target = PathBuf::from(&path);
            crate::export::write_whole(&target, file::export(&replies).as_bytes())
                .map_err(|e| ErrorBody::new("export_failed", format!("writing {path} failed: {e}")))?;
            Ok(replies.len())
        })
        .await
    }

    /// Imports the JSON file at `path`, all or nothing: every entry is checked first, and a bad
    /// one (`invalid_saved_replies_file`, naming it) leaves the saved replies as they were.
    pub async fn import_saved_replies(&self, path: String) -> Result<ImportOutcome, ErrorBody> {
        self.blocking(move |app| {
            let text = read_file(&path)?;
            let entries = file::parse(&text)?;
            Ok(app.replies.import(entries)?)
        })
        .await
    }
}

/// The person the `{{person.*}}` variables name: Settings → You, the name falling back to the one
/// replies are recorded under.
fn person(app: &Inner) -> Result<Person, ErrorBody> {
    let you = settings::you(app.settings.as_ref())?;
    let name = if you.name.is_empty() { app.person.clone() } else { you.name };
    Ok(Person { name, email: you.email })
}

/// The file's text, refused as a saved-replies file when it is not a regular file, too large or
/// not UTF-8. It is opened once (`O_NONBLOCK`, so a FIFO cannot hold the import), checked on the
/// opened descriptor and read from it, never past the cap — not checked by path and then read by
/// path, between which the file can be swapped.
fn read_file(path: &str) -> Result<String, ErrorBody> {
    use skillcase_skill::skill_dir::{open_named, FileError};
    let unreadable = |reason: String| CasesError::InvalidSavedRepliesFile { entry: None, reason };
    let bytes =
        open_named(Path::new(path), path, file::MAX_BYTES).and_then(|f| f.read_all()).map_err(|e| {
            unreadable(match e {
                FileError::TooLarge { size, .. } => {
                    format!("it is {size} bytes; at most {} are read", file::MAX_BYTES)
                }
                FileError::NotRegular { kind, .. } => {
                    format!("{path} is {}, not a regular file", kind.describe())
                }
                other => other.to_string(),
            })
        })?;
    String::from_utf8(bytes).map_err(|_| unreadable("it is not UTF-8 text".into()).into())
}
