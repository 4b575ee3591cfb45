//! Files only their owner may read: the data directory is created 0700 and the database and every
//! secret 0600, so another user of the machine reads none of them whatever the umask says.
//! Elsewhere than Unix the platform's defaults apply.

use std::fs;
use std::io;
use std::path::Path;

/// Creates `dir` and any missing parent, each new folder readable by its owner only (0700). A
/// folder that exists already keeps its mode: it may be one the person chose and shares.
pub fn create_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Creates the empty file `path` with mode 0600 unless it exists, so that what is written to it
/// later (SQLite creating a database in it) is private from the first byte.
pub fn create_file(path: &Path) -> io::Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// Makes `path` private (0600) if others may read or write it: a file an older Skillcase left
/// readable by everyone may have leaked, but is closed from now on.
pub fn tighten(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = fs::metadata(path)?;
        if meta.permissions().mode() & 0o077 != 0 {
            fs::set_permissions(path, fs::Permissions::from_mode(0o600))?;
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn new_folders_are_0700_and_an_existing_one_keeps_its_mode() {
        let tmp = tempfile::tempdir().unwrap();
        let shared = tmp.path().join("shared");
        fs::create_dir(&shared).unwrap();
        fs::set_permissions(&shared, fs::Permissions::from_mode(0o755)).unwrap();
        create_dir(&shared.join("a/b")).unwrap();
        assert_eq!(
            (mode(&shared), mode(&shared.join("a")), mode(&shared.join("a/b"))),
            (0o755, 0o700, 0o700)
        );
    }

    #[test]
    fn a_new_file_is_0600_and_a_readable_one_is_tightened() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("f");
        create_file(&path).unwrap();
        assert_eq!(mode(&path), 0o600);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        tighten(&path).unwrap();
        assert_eq!(mode(&path), 0o600);
    }
}
