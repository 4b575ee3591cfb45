//! Making a write survive a crash or power loss. A file's own `sync_all` is not enough after a
//! create or a rename: the directory entry lives in the parent folder, which must be synced too.

use std::path::Path;

/// Syncs the folder `dir` so the entries created or renamed in it are on disk. A no-op where the
/// platform cannot open a directory for syncing (Windows).
#[cfg(unix)]
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// Syncs the folder `dir` so the entries created or renamed in it are on disk. A no-op where the
/// platform cannot open a directory for syncing (Windows).
#[cfg(not(unix))]
pub fn sync_dir(_dir: &Path) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_missing_folder_is_an_error_not_a_silent_success() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(super::sync_dir(tmp.path()).is_ok());
        #[cfg(unix)]
        assert!(super::sync_dir(&tmp.path().join("gone")).is_err());
    }
}
