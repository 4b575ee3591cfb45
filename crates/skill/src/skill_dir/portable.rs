//! The portable folder, by path with `std::fs`, for systems without `openat`: every component is
//! checked with `symlink_metadata` before it is opened and the opened handle's own metadata is
//! checked after, so links, special files and large files are refused. Unlike the Unix folder it
//! cannot stop a swap between the check and the open; it keeps non-Unix builds working. On Unix
//! it is compiled for tests only, which hold it to the Unix folder's behaviour.

use std::fs;
use std::path::{Path, PathBuf};

use super::{FileError, Kind, OpenFile, Reach, Stat};

/// The skill folder itself, by its path.
#[derive(Debug)]
pub struct Root {
    abs: PathBuf,
}

impl Root {
    pub(super) fn open(path: &Path, reach: Reach) -> Result<Root, FileError> {
        let meta = match reach {
            Reach::Named => fs::metadata(path),
            Reach::Listed => fs::symlink_metadata(path),
        };
        let meta = meta.map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => FileError::NotFound(path.to_path_buf()),
            _ => FileError::FolderIo { path: path.to_path_buf(), source: e },
        })?;
        if meta.file_type().is_symlink() {
            return Err(FileError::Symlink { path: String::new() });
        }
        if !meta.is_dir() {
            return Err(FileError::NotADirectory(path.to_path_buf()));
        }
        Ok(Root { abs: path.to_path_buf() })
    }

    #[cfg_attr(unix, allow(dead_code))]
    pub(super) fn path(&self) -> &Path {
        &self.abs
    }

    #[cfg_attr(unix, allow(dead_code))]
    pub(super) fn open_beneath<'p>(&self, rel: &'p str, limit: u64) -> Result<OpenFile<'p>, FileError> {
        let mut at = self.abs.clone();
        for segment in rel.split('/') {
            at.push(segment);
            let meta = fs::symlink_metadata(&at).map_err(|e| FileError::io(rel, e))?;
            if meta.file_type().is_symlink() {
                return Err(FileError::Symlink { path: rel.to_string() });
            }
        }
        open_checked(&at, rel, limit)
    }

    #[cfg_attr(unix, allow(dead_code))]
    pub(super) fn kind_of_child(&self, name: &str) -> Option<Kind> {
        fs::symlink_metadata(self.abs.join(name)).ok().map(|m| Kind::of_metadata(&m))
    }

    pub(super) fn into_folder(self) -> Result<Folder, FileError> {
        Ok(Folder { abs: self.abs, entries: None })
    }

    #[cfg_attr(unix, allow(dead_code))]
    pub(super) fn folder(&self) -> Result<Folder, FileError> {
        Ok(Folder { abs: self.abs.clone(), entries: None })
    }
}

/// An open (listed) folder of a skill, reached by its path.
#[derive(Debug)]
pub struct Folder {
    abs: PathBuf,
    /// The listing, started by the first [`Folder::next_entry`]; `Err` once it failed to start.
    entries: Option<Result<fs::ReadDir, ()>>,
}

impl Folder {
    pub(crate) fn next_entry(&mut self, rel: &str) -> Option<Result<Entry, FileError>> {
        if self.entries.is_none() {
            match fs::read_dir(&self.abs) {
                Ok(entries) => self.entries = Some(Ok(entries)),
                Err(e) => {
                    self.entries = Some(Err(()));
                    return Some(Err(FileError::io(rel, e)));
                }
            }
        }
        let entry = self.entries.as_mut()?.as_mut().ok()?.next()?;
        Some(entry.map(Entry::new).map_err(|e| FileError::io(rel, e)))
    }

    pub(crate) fn kind(&self, entry: &Entry, rel: &str) -> Result<Kind, FileError> {
        let kind = entry.raw.file_type().map_err(|e| FileError::io(rel, e))?;
        Ok(if kind.is_symlink() {
            Kind::Symlink
        } else if kind.is_dir() {
            Kind::Dir
        } else if kind.is_file() {
            Kind::File
        } else {
            self.stat(entry, rel)?.kind
        })
    }

    pub(crate) fn open_folder(&self, entry: &Entry, rel: &str) -> Result<Folder, FileError> {
        let path = entry.raw.path();
        let meta = fs::symlink_metadata(&path).map_err(|e| FileError::io(rel, e))?;
        if meta.file_type().is_symlink() {
            return Err(FileError::Symlink { path: rel.to_string() });
        }
        Ok(Folder { abs: path, entries: None })
    }

    pub(crate) fn open_file<'p>(
        &self,
        entry: &Entry,
        rel: &'p str,
        limit: u64,
    ) -> Result<OpenFile<'p>, FileError> {
        let path = entry.raw.path();
        let meta = fs::symlink_metadata(&path).map_err(|e| FileError::io(rel, e))?;
        if meta.file_type().is_symlink() {
            return Err(FileError::Symlink { path: rel.to_string() });
        }
        open_checked(&path, rel, limit)
    }

    pub(crate) fn stat(&self, entry: &Entry, rel: &str) -> Result<Stat, FileError> {
        let meta = entry.raw.metadata().map_err(|e| FileError::io(rel, e))?;
        Ok(stat_of(&meta))
    }

    pub(crate) fn read_link(&self, entry: &Entry, rel: &str) -> Result<PathBuf, FileError> {
        fs::read_link(entry.raw.path()).map_err(|e| FileError::io(rel, e))
    }

    pub(crate) fn shown(&self, entry: &Entry) -> PathBuf {
        entry.raw.path()
    }
}

/// One listed entry.
#[derive(Debug)]
pub struct Entry {
    raw: fs::DirEntry,
    name: Option<String>,
}

impl Entry {
    fn new(raw: fs::DirEntry) -> Entry {
        let name = raw.file_name().into_string().ok();
        Entry { raw, name }
    }

    pub(crate) fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }
}

/// Opens the file at `path`, a person named, and checks the handle (a FIFO may block here).
#[cfg(not(unix))]
pub(super) fn open_named<'p>(path: &Path, shown: &'p str, limit: u64) -> Result<OpenFile<'p>, FileError> {
    open_checked(path, shown, limit)
}

/// Opens `path` and checks the handle: a regular file within `limit`.
pub(super) fn open_checked<'p>(path: &Path, rel: &'p str, limit: u64) -> Result<OpenFile<'p>, FileError> {
    let file = fs::File::open(path).map_err(|e| FileError::io(rel, e))?;
    let meta = file.metadata().map_err(|e| FileError::io(rel, e))?;
    OpenFile::checked(file, stat_of(&meta), limit, rel)
}

fn stat_of(meta: &fs::Metadata) -> Stat {
    Stat {
        kind: Kind::of_metadata(meta),
        size: meta.len(),
        unix_mode: unix_mode(meta),
        modified: meta.modified().ok(),
    }
}

#[cfg(unix)]
fn unix_mode(meta: &fs::Metadata) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    Some(meta.permissions().mode() & 0o7777)
}

#[cfg(not(unix))]
fn unix_mode(_meta: &fs::Metadata) -> Option<u32> {
    None
}
