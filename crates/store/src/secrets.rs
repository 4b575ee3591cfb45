//! Secrets kept beside the database, never in it — the bearer tokens of remote catalogs, stored
//! the way the API token is: one file per secret, mode 0600, in a folder of the data directory
//! that is 0700. The database keeps only the file's name (the *reference*), so a copy of the
//! database file, a backup or a bug report carries no secret.
//!
//! A secret is written to a new file with a random name (created exclusively, fsynced, its folder
//! synced) before the row naming it is committed; a secret whose row never committed is a file
//! nobody names, never a row naming nothing.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use skillcase_common::durable::sync_dir;

use crate::private;

/// The folder of the catalogs' bearer tokens, inside the data directory.
pub const CATALOG_TOKENS_DIR: &str = "catalog-tokens";
/// Every reference starts so, followed by random letters and digits.
const PREFIX: &str = "token-";
/// Random characters in a reference.
const RANDOM_CHARS: usize = 16;

/// A folder of secret files.
#[derive(Debug, Clone)]
pub struct SecretFiles {
    dir: PathBuf,
}

impl SecretFiles {
    /// The catalogs' tokens of the data directory `data_dir`.
    pub fn catalog_tokens(data_dir: &Path) -> SecretFiles {
        SecretFiles { dir: data_dir.join(CATALOG_TOKENS_DIR) }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the secret `reference` lives, if `reference` is a name this store gives (never a
    /// path: a reference read from a database cannot point outside the folder).
    pub fn path_of(&self, reference: &str) -> Option<PathBuf> {
        let random = reference.strip_prefix(PREFIX)?;
        let plain = random.len() == RANDOM_CHARS && random.bytes().all(|b| b.is_ascii_alphanumeric());
        plain.then(|| self.dir.join(reference))
    }

    /// Writes `secret` to a new private file and returns its reference.
    pub fn put(&self, secret: &str) -> io::Result<String> {
        private::create_dir(&self.dir)?;
        // `tempfile` creates the file exclusively with mode 0600 under a random name.
        let mut file =
            tempfile::Builder::new().prefix(PREFIX).rand_bytes(RANDOM_CHARS).tempfile_in(&self.dir)?;
        file.write_all(secret.as_bytes())?;
        file.as_file().sync_all()?;
        let (_, path) = file.keep().map_err(|e| e.error)?;
        sync_dir(&self.dir)?;
        let reference = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        Ok(reference)
    }

    /// The secret `reference` names; made private first if others could read it.
    pub fn get(&self, reference: &str) -> io::Result<String> {
        let path = self.path_of(reference).ok_or_else(|| not_a_reference(reference))?;
        private::tighten(&path)?;
        fs::read_to_string(path)
    }

    /// Forgets the secret `reference` names; one already gone is not an error.
    pub fn remove(&self, reference: &str) -> io::Result<()> {
        let path = self.path_of(reference).ok_or_else(|| not_a_reference(reference))?;
        match fs::remove_file(path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => sync_dir(&self.dir).or(Ok(())),
        }
    }
}

fn not_a_reference(reference: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, format!("`{reference}` is not a secret's reference"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_read_back_by_its_reference_and_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let secrets = SecretFiles::catalog_tokens(tmp.path());
        let reference = secrets.put("s3cret").unwrap();
        assert!(reference.starts_with(PREFIX), "{reference}");
        assert_eq!(secrets.get(&reference).unwrap(), "s3cret");
        secrets.remove(&reference).unwrap();
        assert_eq!(secrets.get(&reference).unwrap_err().kind(), io::ErrorKind::NotFound);
        secrets.remove(&reference).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn the_file_is_0600_in_a_0700_folder() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let secrets = SecretFiles::catalog_tokens(tmp.path());
        let reference = secrets.put("s3cret").unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&secrets.path_of(&reference).unwrap()), 0o600);
        assert_eq!(mode(secrets.dir()), 0o700);
    }

    #[test]
    fn a_reference_that_is_a_path_names_nothing() {
        let secrets = SecretFiles::catalog_tokens(Path::new("/data"));
        for bad in ["../api-token", "token-../../etc/passwd", "/etc/passwd", "token-", "api-token"] {
            assert!(secrets.path_of(bad).is_none(), "{bad}");
            assert_eq!(secrets.get(bad).unwrap_err().kind(), io::ErrorKind::InvalidInput, "{bad}");
        }
    }
}
