//! Saved replies: Settings lists, adds, changes, deletes, imports and exports them; the reply
//! box's picker asks which fit what is being typed on a case.

use crate::ipc::ipc;
use skillcase_application::domain::cases::replies::pick::PickFilter;
use skillcase_application::domain::cases::replies::{
    ImportOutcome, PickedReply, SavedReply, SavedReplyInput,
};
use tauri::State;

use crate::state::AppState;

ipc! {
    /// Every saved reply, by title.
    fn saved_replies_list(state: State<'_, AppState>) -> Vec<SavedReply> {
        Ok(state.app().saved_replies().await?)
    }

    /// Adds a saved reply (its body's variables checked).
    fn saved_reply_create(state: State<'_, AppState>, input: SavedReplyInput) -> SavedReply {
        Ok(state.app().create_saved_reply(input).await?)
    }

    /// Changes a saved reply.
    fn saved_reply_update(state: State<'_, AppState>, id: String, input: SavedReplyInput) -> SavedReply {
        Ok(state.app().update_saved_reply(id, input).await?)
    }

    /// Deletes a saved reply.
    fn saved_reply_delete(state: State<'_, AppState>, id: String) -> () {
        Ok(state.app().delete_saved_reply(id).await?)
    }

    /// The saved replies the picker offers on case `id`, rendered for it.
    fn saved_replies_pick(state: State<'_, AppState>, id: String, filter: PickFilter) -> Vec<PickedReply> {
        Ok(state.app().pick_saved_replies(id, filter).await?)
    }

    /// Writes every saved reply to the JSON file at `path`; answers how many.
    fn saved_replies_export(state: State<'_, AppState>, path: String) -> u32 {
        Ok(state.app().export_saved_replies(path).await? as u32)
    }

    /// Imports the JSON file at `path`, all or nothing.
    fn saved_replies_import(state: State<'_, AppState>, path: String) -> ImportOutcome {
        Ok(state.app().import_saved_replies(path).await?)
    }
}
