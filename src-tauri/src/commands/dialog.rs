//! Native dialogs (tauri-plugin-dialog), opened from Rust so the web view itself needs no
//! dialog permission: the folder picker for the skills directory.

use crate::ipc::ipc;
use tauri::AppHandle;
use tauri_plugin_dialog::DialogExt;

ipc! {
    /// Lets the person choose a folder (starting at `start` when given); `None` when they cancel.
    fn pick_folder(app: AppHandle, title: String, start: Option<String>) -> Option<String> {
        let mut dialog = app.dialog().file().set_title(title);
        if let Some(start) = start.filter(|s| !s.is_empty()) {
            dialog = dialog.set_directory(start);
        }
        let (sender, receiver) = tokio::sync::oneshot::channel();
        dialog.pick_folder(move |folder| {
            let _ = sender.send(folder);
        });
        let folder = receiver.await.ok().flatten();
        Ok(folder.and_then(|f| f.into_path().ok()).map(|path| path.display().to_string()))
    }
}
