//! A skill package as a set of in-memory files, before it is (or without it being) on disk.
//! The zip inspector produces one, the folder loader produces one, and the validator checks one,
//! so an untrusted zip is validated completely before a single byte is written.

/// One file of a package, path relative to the skill root with `/` separators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageFile {
    pub path: String,
    /// The content. Complete in every package that is stored, extracted or served; only a folder
    /// read to be validated and dropped (inside [`crate::load::load_dir`]) may hold just the
    /// part the rules read (see [`PackageFile::validation_only`] and [`PackageFile::is_complete`]).
    pub bytes: Vec<u8>,
    /// The file's full size in bytes (`bytes.len()` whenever the content is complete), so the size
    /// rules and the manifest never depend on how much was read.
    pub size: u64,
    /// Unix permission bits where the source has them (folder on Unix, zip entry); `None` otherwise.
    pub unix_mode: Option<u32>,
    /// SHA-256 of `bytes`, lowercase hex: the key of the content-addressed blob store. The zip
    /// inspector computes it while streaming; [`PackageFile::new`] computes it for other sources.
    /// Empty for a file read only to be validated.
    pub sha256: String,
}

impl PackageFile {
    /// A complete file whose hash is computed from its bytes.
    pub fn new(path: impl Into<String>, bytes: Vec<u8>, unix_mode: Option<u32>) -> Self {
        use sha2::{Digest, Sha256};
        let sha256 = format!("{:x}", Sha256::digest(&bytes));
        Self::with_hash(path, bytes, unix_mode, sha256)
    }

    /// A complete file whose hash the caller already computed (the zip inspector hashes while it
    /// inflates).
    pub fn with_hash(
        path: impl Into<String>,
        bytes: Vec<u8>,
        unix_mode: Option<u32>,
        sha256: String,
    ) -> Self {
        let size = bytes.len() as u64;
        Self { path: path.into(), bytes, size, unix_mode, sha256 }
    }

    /// A file read only to be validated and dropped: no hash, and `bytes` may be only the head of
    /// a file of `size` bytes (what the rules look at). Never store or serve such a file; the blob
    /// store refuses it anyway, as it refuses any file whose `sha256` is not a hash.
    pub fn validation_only(
        path: impl Into<String>,
        bytes: Vec<u8>,
        size: u64,
        unix_mode: Option<u32>,
    ) -> Self {
        debug_assert!(bytes.len() as u64 <= size, "a head cannot be longer than the file");
        Self { path: path.into(), bytes, size, unix_mode, sha256: String::new() }
    }

    /// True when `bytes` is the whole file.
    pub fn is_complete(&self) -> bool {
        self.bytes.len() as u64 == self.size
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
        self.files.iter().map(|f| f.size).sum()
    }
}
