//! A skill package as a set of in-memory files, before it is (or without it being) on disk.
//! The zip inspector produces one, the folder loader produces one, and the validator checks one,
//! so an untrusted zip is validated completely before a single byte is written.

/// One file of a package, path relative to the skill root with `/` separators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageFile {
    pub path: String,
    pub bytes: Vec<u8>,
    /// Unix permission bits where the source has them (folder on Unix, zip entry); `None` otherwise.
    pub unix_mode: Option<u32>,
    /// SHA-256 of `bytes`, lowercase hex: the key of the content-addressed blob store. The zip
    /// inspector computes it while streaming; [`PackageFile::new`] computes it for other sources.
    pub sha256: String,
}

impl PackageFile {
    /// A file whose hash is computed from its bytes.
    pub fn new(path: impl Into<String>, bytes: Vec<u8>, unix_mode: Option<u32>) -> Self {
        use sha2::{Digest, Sha256};
        let sha256 = format!("{:x}", Sha256::digest(&bytes));
        Self { path: path.into(), bytes, unix_mode, sha256 }
    }
}

/// A whole package: the folder name it came in (`None` for a zip with `SKILL.md` at its root)
/// and its files, sorted by path, junk already dropped.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Package {
    pub folder_name: Option<String>,
    pub files: Vec<PackageFile>,
}

impl Package {
    /// The file at `path`, if the package has it.
    pub fn file(&self, path: &str) -> Option<&PackageFile> {
        self.files.iter().find(|f| f.path == path)
    }

    /// Total uncompressed size in bytes.
    pub fn total_bytes(&self) -> u64 {
        self.files.iter().map(|f| f.bytes.len() as u64).sum()
    }
}
