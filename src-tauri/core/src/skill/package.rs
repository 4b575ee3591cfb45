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
