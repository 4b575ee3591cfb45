//! The one safe way to open a file under a skill folder, used by every reader: the start-up
//! scan, level 1, the folder walk of validation and storage, the level-2/3 reads, folder
//! import, the library's fingerprints and the watcher's follow-ups.
//!
//! A skill folder is opened once ([`SkillDir::open`]) and every file beneath it is opened
//! relative to that handle without following a symbolic link at any step — `openat2` with
//! `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS` where the kernel has it, else `O_NOFOLLOW` one path
//! component at a time — and with `O_NONBLOCK`, so opening a FIFO returns at once instead of
//! waiting for a writer. Then the *opened* descriptor is `fstat`ed: anything but a regular file is
//! refused ([`FileError::NotRegular`]) and a file over the reader's limit is refused
//! ([`FileError::TooLarge`]), both before a byte is read; and reads stop at the limit even if
//! the file grows meanwhile. Nothing here checks a path and then opens it: another process can
//! swap a path between two system calls (a file for a link to `/etc/passwd`, or for a FIFO), so
//! only what was actually opened is ever trusted.
//!
//! On non-Unix systems a portable fallback checks each component with `symlink_metadata` before
//! opening it and then checks the opened handle's metadata; it keeps builds working and refuses
//! links, special files and large files, but it cannot close the race the Unix path closes.

mod error;
mod open_dir;
#[cfg(any(not(unix), test))]
mod portable;
mod read;
#[cfg(unix)]
mod unix;
pub mod walk;

use std::fs;
use std::path::Path;
use std::time::SystemTime;

pub use error::FileError;
pub use open_dir::OpenDir;
pub(crate) use read::read_once;

#[cfg(not(unix))]
use portable as native;
#[cfg(unix)]
use unix as native;

/// What a folder entry or an opened file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    Symlink,
    Fifo,
    Socket,
    CharDevice,
    BlockDevice,
    /// Anything the platform reports that is none of the above.
    Other,
}

impl Kind {
    /// The kind in words, for messages ("a FIFO").
    pub fn describe(self) -> &'static str {
        match self {
            Kind::File => "a regular file",
            Kind::Dir => "a folder",
            Kind::Symlink => "a symbolic link",
            Kind::Fifo => "a FIFO (named pipe)",
            Kind::Socket => "a socket",
            Kind::CharDevice => "a character device",
            Kind::BlockDevice => "a block device",
            Kind::Other => "a special file",
        }
    }

    /// The kind of `std::fs` metadata that was read without following a link.
    pub fn of_metadata(meta: &fs::Metadata) -> Kind {
        let kind = meta.file_type();
        if kind.is_symlink() {
            return Kind::Symlink;
        }
        if kind.is_dir() {
            return Kind::Dir;
        }
        if kind.is_file() {
            return Kind::File;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if kind.is_fifo() {
                return Kind::Fifo;
            }
            if kind.is_socket() {
                return Kind::Socket;
            }
            if kind.is_char_device() {
                return Kind::CharDevice;
            }
            if kind.is_block_device() {
                return Kind::BlockDevice;
            }
        }
        Kind::Other
    }
}

/// What a file's own descriptor (or a no-follow `stat`) says about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    pub kind: Kind,
    pub size: u64,
    /// Unix permission bits (`0o7777`); `None` where the platform has none.
    pub unix_mode: Option<u32>,
    pub modified: Option<SystemTime>,
}

/// How the skill folder itself was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// A folder a person named (`skillcase validate ./link`): the path is followed as the shell
    /// would, the folder itself included.
    Named,
    /// A folder found inside a skills directory: the folder itself must not be a symbolic link
    /// (discovery never follows one, and a folder swapped for one later must not be followed
    /// either). Links in the skills directory's own path are the person's choice and followed.
    Listed,
}

/// An open skill folder: every file beneath it is opened relative to this handle.
#[derive(Debug)]
pub struct SkillDir {
    root: native::Root,
}

impl SkillDir {
    /// Opens the skill folder at `path`. A missing path is [`FileError::NotFound`], a file is
    /// [`FileError::NotADirectory`], and with [`Reach::Listed`] a link is [`FileError::Symlink`].
    /// A [`Reach::Named`] folder may be opened lazily (on Unix its path is followed anyway, so a
    /// single name beneath it is opened by path with `O_NOFOLLOW`); then a missing folder shows
    /// as the first open beneath it failing with [`FileError::is_not_found`].
    pub fn open(path: &Path, reach: Reach) -> Result<SkillDir, FileError> {
        Ok(SkillDir { root: native::Root::open(path, reach)? })
    }

    /// The folder's path as it was opened (for messages and for a skill's `dir`).
    pub fn path(&self) -> &Path {
        self.root.path()
    }

    /// Opens the regular file at `rel` (relative, `/` between segments, no empty, `.` or `..`
    /// segment) beneath the folder, refusing links at every step, anything but a regular file,
    /// and a file over `limit` bytes.
    pub fn open_file<'p>(&self, rel: &'p str, limit: u64) -> Result<OpenFile<'p>, FileError> {
        check_relative(rel)?;
        self.root.open_beneath(rel, limit)
    }

    /// The whole file at `rel` (see [`SkillDir::open_file`]), at most `limit` bytes.
    pub fn read(&self, rel: &str, limit: u64) -> Result<Vec<u8>, FileError> {
        self.open_file(rel, limit)?.read_all()
    }

    /// What the entry `name` directly inside the folder is, without following a link or opening
    /// it; `None` when there is no such entry.
    pub fn kind_of(&self, name: &str) -> Option<Kind> {
        check_relative(name).ok()?;
        self.root.kind_of_child(name)
    }

    #[cfg(test)]
    pub(crate) fn root(&self) -> &native::Root {
        &self.root
    }

    /// The folder, ready to be listed by the walk.
    pub(crate) fn into_folder(self) -> Result<native::Folder, FileError> {
        self.root.into_folder()
    }

    /// The folder, ready to be listed by a walk, with `self` kept open for another.
    pub(crate) fn folder(&self) -> Result<native::Folder, FileError> {
        self.root.folder()
    }
}

/// The portable folder over `path`, for tests that hold it to the Unix one.
#[cfg(all(test, unix))]
pub(crate) fn portable_folder(path: &Path) -> portable::Folder {
    portable::Root::open(path, Reach::Named).and_then(portable::Root::into_folder).unwrap()
}

/// Opens a file a person named rather than one found in a skill folder (a package to import or
/// validate): its path is followed as the shell would, but the other defences hold — a FIFO
/// cannot hold the open, and the opened descriptor must be a regular file no larger than `limit`
/// ([`FileError::NotRegular`], [`FileError::TooLarge`], both before a byte is read). `shown`
/// names the file in refusals.
pub fn open_named<'p>(path: &Path, shown: &'p str, limit: u64) -> Result<OpenFile<'p>, FileError> {
    native::open_named(path, shown, limit)
}

/// Refuses a path that is not plain relative segments, before any system call.
fn check_relative(rel: &str) -> Result<(), FileError> {
    let plain = !rel.is_empty()
        && !rel.starts_with('/')
        && !rel.contains('\\')
        && !rel.contains('\0')
        && rel.split('/').all(|s| !s.is_empty() && s != "." && s != "..");
    if plain {
        Ok(())
    } else {
        Err(FileError::NotBeneath { path: rel.to_string() })
    }
}

/// An opened regular file no larger than its reader's limit when it was opened.
#[derive(Debug)]
pub struct OpenFile<'p> {
    file: fs::File,
    stat: Stat,
    limit: u64,
    /// The file's path relative to the skill folder, for errors.
    rel: &'p str,
}

impl<'p> OpenFile<'p> {
    /// Checks what an open returned: a regular file within `limit`, or the refusal.
    pub(crate) fn checked(file: fs::File, stat: Stat, limit: u64, rel: &'p str) -> Result<Self, FileError> {
        if stat.kind != Kind::File {
            return Err(FileError::NotRegular { path: rel.to_string(), kind: stat.kind });
        }
        if stat.size > limit {
            return Err(FileError::TooLarge { path: rel.to_string(), size: stat.size, limit });
        }
        Ok(OpenFile { file, stat, limit, rel })
    }

    /// The size and mode the descriptor reported when it was opened.
    pub fn stat(&self) -> &Stat {
        &self.stat
    }

    /// The open file, for reads of part of it (never more than [`Stat::size`] should be asked).
    pub fn file(&self) -> &fs::File {
        &self.file
    }

    /// The file's path relative to the skill folder.
    pub fn rel(&self) -> &'p str {
        self.rel
    }

    /// Reads to the end, but never more than the limit: a file that grew past it meanwhile is
    /// [`FileError::TooLarge`] after at most one byte too many.
    pub fn read_all(self) -> Result<Vec<u8>, FileError> {
        match read::read_capped(&self.file, self.stat.size, self.limit) {
            Ok(Some(bytes)) => Ok(bytes),
            Ok(None) => Err(FileError::TooLarge {
                path: self.rel.to_string(),
                size: self.limit + 1,
                limit: self.limit,
            }),
            Err(source) => Err(FileError::io(self.rel, source)),
        }
    }
}

#[cfg(test)]
mod tests;
