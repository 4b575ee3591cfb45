//! Native dialogs (tauri-plugin-dialog), opened from Rust so the web view itself needs no
//! dialog permission: the folder picker for the skills directory, the save dialog of *Export* and the open
//! dialog of saved replies' *Import*.

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

    /// Lets the person choose where to save a file (named `default_name` to begin with, offering
    /// files ending in `extensions`); `None` when they cancel.
    fn pick_save_file(app: AppHandle, title: String, default_name: String, filter_name: String, extensions: Vec<String>) -> Option<String> {
        let extensions: Vec<&str> = extensions.iter().map(String::as_str).collect();
        let dialog = app.dialog().file().set_title(title).set_file_name(default_name).add_filter(filter_name, &extensions);
        let (sender, receiver) = tokio::sync::oneshot::channel();
        dialog.save_file(move |file| {
            let _ = sender.send(file);
        });
        let file = receiver.await.ok().flatten();
        Ok(file.and_then(|f| f.into_path().ok()).map(|path| path.display().to_string()))
    }

    /// Lets the person choose a file to open (offering files ending in `extensions`); `None`
    /// when they cancel.
    fn pick_open_file(app: AppHandle, title: String, filter_name: String, extensions: Vec<String>) -> Option<String> {
        let extensions: Vec<&str> = extensions.iter().map(String::as_str).collect();
        let dialog = app.dialog().file().set_title(title).add_filter(filter_name, &extensions);
        let (sender, receiver) = tokio::sync::oneshot::channel();
        dialog.pick_file(move |file| {
            let _ = sender.send(file);
        });
        let file = receiver.await.ok().flatten();
        Ok(file.and_then(|f| f.into_path().ok()).map(|path| path.display().to_string()))
    }
}
