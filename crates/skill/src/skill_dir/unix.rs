//! The Unix folder: a directory descriptor, its entries listed through it, and every file and
//! sub-folder opened relative to it with `O_NOFOLLOW | O_NONBLOCK`, then checked by `fstat`.

use std::ffi::{CStr, OsStr};
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rustix::fd::{AsFd, BorrowedFd, OwnedFd};
use rustix::fs::{AtFlags, Dir, DirEntry, FileType, Mode, OFlags};
use rustix::io::Errno;

use super::{FileError, Kind, OpenFile, Reach, Stat};

/// How a file is opened: read-only, never a link, never waiting (a FIFO without a writer, a
/// device), never becoming the controlling terminal.
const FILE: OFlags = OFlags::RDONLY
    .union(OFlags::CLOEXEC)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::NONBLOCK)
    .union(OFlags::NOCTTY);
/// How a sub-folder is opened to be listed.
const FOLDER: OFlags = OFlags::RDONLY.union(OFlags::CLOEXEC).union(OFlags::NOFOLLOW).union(OFlags::DIRECTORY);

/// The skill folder itself, the anchor of everything beneath it.
///
/// A [`Reach::Listed`] folder is held open (on Linux as an `O_PATH` descriptor, which costs the
/// kernel less than a readable one: no permission check, no open notification), so the folder
/// itself was checked once not to be a link and every later open is relative to what was found.
/// A [`Reach::Named`] folder is followed wherever its path leads anyway, so opening
/// `<path>/<name>` with `O_NOFOLLOW` is exactly as safe as opening `<path>` and then `<name>`
/// relative to it: single names beneath it are opened by path, which spares level 1 an open and
/// a close per folder, and a descriptor is taken only for a walk or a deeper path.
#[derive(Debug)]
pub struct Root {
    /// `None` for a named folder (see above).
    fd: Option<OwnedFd>,
    abs: PathBuf,
}

/// How a listed skill folder is opened as an anchor.
#[cfg(any(target_os = "linux", target_os = "android"))]
const ANCHOR: OFlags = OFlags::PATH.union(OFlags::CLOEXEC).union(OFlags::DIRECTORY).union(OFlags::NOFOLLOW);
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const ANCHOR: OFlags = FOLDER;

impl Root {
    /// Opens the skill folder itself. A listed folder must not be a link; its open says whether
    /// it exists and is a folder, so it costs no separate `stat`. A named folder is opened when
    /// first needed, and a missing one is reported then.
    pub(super) fn open(path: &Path, reach: Reach) -> Result<Root, FileError> {
        let fd = match reach {
            Reach::Named => None,
            Reach::Listed => Some(open_folder_at(rustix::fs::CWD, path, ANCHOR)?),
        };
        Ok(Root { fd, abs: path.to_path_buf() })
    }

    pub(super) fn path(&self) -> &Path {
        &self.abs
    }

    /// Opens the skill folder `name` of the folder `at` (never a link), as a listed folder.
    pub(super) fn open_in(at: BorrowedFd<'_>, name: &str, abs: PathBuf) -> Result<Root, FileError> {
        let fd = rustix::fs::openat(at, name, ANCHOR, Mode::empty()).map_err(|e| match e {
            Errno::NOENT => FileError::NotFound(abs.clone()),
            Errno::LOOP => FileError::Symlink { path: String::new() },
            Errno::NOTDIR if is_link(at, name) => FileError::Symlink { path: String::new() },
            Errno::NOTDIR => FileError::NotADirectory(abs.clone()),
            other => FileError::FolderIo { path: abs.clone(), source: other.into() },
        })?;
        Ok(Root { fd: Some(fd), abs })
    }

    /// Opens the regular file at the relative path `rel` beneath the folder.
    pub(super) fn open_beneath<'p>(&self, rel: &'p str, limit: u64) -> Result<OpenFile<'p>, FileError> {
        let fd = match (&self.fd, rel.contains('/')) {
            (Some(fd), false) => rustix::fs::openat(fd, rel, FILE, Mode::empty()),
            (Some(fd), true) => open_nested(fd.as_fd(), rel),
            (None, false) => with_child(&self.abs, rel, |path| rustix::fs::open(path, FILE, Mode::empty())),
            (None, true) => {
                let anchor = open_folder_at(rustix::fs::CWD, &self.abs, ANCHOR.difference(OFlags::NOFOLLOW))?;
                open_nested(anchor.as_fd(), rel)
            }
        }
        .map_err(|e| refused(e, rel))?;
        checked(fd, limit, rel)
    }

    /// The kind of the entry `name` inside the folder, without following it or opening it.
    pub(super) fn kind_of_child(&self, name: &str) -> Option<Kind> {
        let st = match &self.fd {
            Some(fd) => rustix::fs::statat(fd, name, AtFlags::SYMLINK_NOFOLLOW),
            None => with_child(&self.abs, name, |path| rustix::fs::lstat(path)),
        };
        Some(kind_of_mode(st.ok()?.st_mode))
    }

    /// The folder, readable, to be walked.
    pub(super) fn into_folder(self) -> Result<Folder, FileError> {
        let readable = match self.fd {
            Some(fd) if ANCHOR.contains(OFlags::PATH) => {
                open_folder_at(fd.as_fd(), Path::new("."), FOLDER)
                    .map_err(|e| FileError::FolderIo { path: self.abs.clone(), source: e.into_io() })?
            }
            Some(fd) => fd,
            None => open_folder_at(rustix::fs::CWD, &self.abs, FOLDER.difference(OFlags::NOFOLLOW))?,
        };
        Folder::new(readable, self.abs)
    }

    /// The folder, readable, to be walked, leaving the root open for another walk: a fresh open of
    /// the same folder, so each walk lists it from its start.
    pub(super) fn folder(&self) -> Result<Folder, FileError> {
        let readable = match &self.fd {
            Some(fd) => open_folder_at(fd.as_fd(), Path::new("."), FOLDER)
                .map_err(|e| FileError::FolderIo { path: self.abs.clone(), source: e.into_io() })?,
            None => open_folder_at(rustix::fs::CWD, &self.abs, FOLDER.difference(OFlags::NOFOLLOW))?,
        };
        Folder::new(readable, self.abs.clone())
    }

    /// The anchor, opened now if the folder is named.
    #[cfg(test)]
    pub(super) fn anchor(&self) -> OwnedFd {
        match &self.fd {
            Some(fd) => fd.try_clone().unwrap(),
            None => open_folder_at(rustix::fs::CWD, &self.abs, ANCHOR.difference(OFlags::NOFOLLOW)).unwrap(),
        }
    }
}

/// Opens the file at `path`, a person named, following its links: `O_NONBLOCK` and the
/// descriptor's own `fstat` still refuse a FIFO or a device without waiting or reading.
pub(super) fn open_named<'p>(path: &Path, shown: &'p str, limit: u64) -> Result<OpenFile<'p>, FileError> {
    let fd = rustix::fs::open(path, FILE.difference(OFlags::NOFOLLOW), Mode::empty())
        .map_err(|e| refused(e, shown))?;
    checked(fd, limit, shown)
}

/// Opens the regular file `name` of the folder `at` as every skill file is opened (never a link,
/// never waiting) and checks the descriptor.
pub(super) fn open_checked_at<'p>(
    at: BorrowedFd<'_>,
    name: &'p str,
    limit: u64,
) -> Result<OpenFile<'p>, FileError> {
    let fd = rustix::fs::openat(at, name, FILE, Mode::empty()).map_err(|e| refused(e, name))?;
    checked(fd, limit, name)
}

/// The kind a `stat` that did not follow a link found.
pub(super) fn kind_of_stat(st: &rustix::fs::Stat) -> Kind {
    kind_of_mode(st.st_mode)
}

/// Opens the folder `path` (relative to `at`) with `flags`: a missing path, a file and (with
/// `O_NOFOLLOW`) a link each get their own refusal.
fn open_folder_at(at: BorrowedFd<'_>, path: &Path, flags: OFlags) -> Result<OwnedFd, FileError> {
    rustix::fs::openat(at, path, flags, Mode::empty()).map_err(|e| match e {
        Errno::NOENT => FileError::NotFound(path.to_path_buf()),
        Errno::LOOP => FileError::Symlink { path: String::new() },
        Errno::NOTDIR => match std::fs::symlink_metadata(path) {
            // Only to word the refusal: the open already refused it.
            Ok(meta) if meta.file_type().is_symlink() => FileError::Symlink { path: String::new() },
            _ => FileError::NotADirectory(path.to_path_buf()),
        },
        other => FileError::FolderIo { path: path.to_path_buf(), source: other.into() },
    })
}

/// Calls `f` with `<dir>/<name>` as a C string, built on the stack when it fits.
fn with_child<T>(
    dir: &Path,
    name: &str,
    f: impl FnOnce(&CStr) -> rustix::io::Result<T>,
) -> rustix::io::Result<T> {
    let (dir, name) = (dir.as_os_str().as_bytes(), name.as_bytes());
    let len = dir.len() + 1 + name.len();
    let mut stack = [0u8; 512];
    let mut heap = Vec::new();
    let buf: &mut [u8] = if len < stack.len() {
        &mut stack[..=len]
    } else {
        heap.resize(len + 1, 0);
        &mut heap
    };
    buf[..dir.len()].copy_from_slice(dir);
    buf[dir.len()] = b'/';
    buf[dir.len() + 1..len].copy_from_slice(name);
    buf[len] = 0;
    match CStr::from_bytes_with_nul(buf) {
        Ok(path) => f(path),
        Err(_) => Err(Errno::INVAL),
    }
}

/// An open folder of a skill, listed through its own handle.
#[derive(Debug)]
pub struct Folder {
    entries: Dir,
    /// The folder's path, for messages only.
    abs: PathBuf,
}

impl Folder {
    fn new(fd: OwnedFd, abs: PathBuf) -> Result<Folder, FileError> {
        let entries =
            Dir::new(fd).map_err(|e| FileError::FolderIo { path: abs.clone(), source: e.into() })?;
        Ok(Folder { entries, abs })
    }

    fn fd(&self) -> BorrowedFd<'_> {
        self.entries.fd().expect("a Dir always has its descriptor")
    }

    /// The next entry other than `.` and `..`, `None` at the end. `rel` is this folder's path
    /// relative to the skill folder, for errors.
    pub(crate) fn next_entry(&mut self, rel: &str) -> Option<Result<Entry, FileError>> {
        loop {
            match self.entries.read()? {
                Ok(e) if matches!(e.file_name().to_bytes(), b"." | b"..") => continue,
                Ok(e) => return Some(Ok(Entry { raw: e })),
                Err(e) => return Some(Err(folder_error(rel, e))),
            }
        }
    }

    /// What `entry` is, without following a link (one `statat` only when the listing does not
    /// say).
    pub(crate) fn kind(&self, entry: &Entry, rel: &str) -> Result<Kind, FileError> {
        Ok(match entry.raw.file_type() {
            FileType::Unknown => kind_of_mode(
                rustix::fs::statat(self.fd(), entry.raw.file_name(), AtFlags::SYMLINK_NOFOLLOW)
                    .map_err(|e| FileError::io(rel, e.into()))?
                    .st_mode,
            ),
            known => kind_of_type(known),
        })
    }

    /// Opens the sub-folder `entry` (package path `rel`); a link swapped in meanwhile is refused.
    pub(crate) fn open_folder(&self, entry: &Entry, rel: &str) -> Result<Folder, FileError> {
        let fd = rustix::fs::openat(self.fd(), entry.raw.file_name(), FOLDER, Mode::empty())
            .map_err(|e| refused(e, rel))?;
        Folder::new(fd, self.shown(entry))
    }

    /// Opens the file `entry` (package path `rel`) and checks the descriptor.
    pub(crate) fn open_file<'p>(
        &self,
        entry: &Entry,
        rel: &'p str,
        limit: u64,
    ) -> Result<OpenFile<'p>, FileError> {
        let fd = rustix::fs::openat(self.fd(), entry.raw.file_name(), FILE, Mode::empty())
            .map_err(|e| refused(e, rel))?;
        checked(fd, limit, rel)
    }

    /// The entry's kind, size, mode and time from a `stat` that does not follow a link and opens
    /// nothing (for files the rules only size, and for fingerprints).
    pub(crate) fn stat(&self, entry: &Entry, rel: &str) -> Result<Stat, FileError> {
        let st = rustix::fs::statat(self.fd(), entry.raw.file_name(), AtFlags::SYMLINK_NOFOLLOW)
            .map_err(|e| FileError::io(rel, e.into()))?;
        Ok(stat_of(&st))
    }

    /// Where the link `entry` points (never followed).
    pub(crate) fn read_link(&self, entry: &Entry, rel: &str) -> Result<PathBuf, FileError> {
        let target = rustix::fs::readlinkat(self.fd(), entry.raw.file_name(), Vec::new())
            .map_err(|e| FileError::io(rel, e.into()))?;
        Ok(PathBuf::from(OsStr::from_bytes(target.to_bytes())))
    }

    /// The entry's path, for messages.
    pub(crate) fn shown(&self, entry: &Entry) -> PathBuf {
        self.abs.join(OsStr::from_bytes(entry.raw.file_name().to_bytes()))
    }
}

/// One listed entry.
#[derive(Debug)]
pub struct Entry {
    raw: DirEntry,
}

impl Entry {
    /// The name, when it is UTF-8 (package paths are text).
    pub(crate) fn name(&self) -> Option<&str> {
        std::str::from_utf8(self.raw.file_name().to_bytes()).ok()
    }
}

/// Whether `openat2` may be tried: unknown (0), available (1) or missing (2).
#[cfg(any(target_os = "linux", target_os = "android"))]
static OPENAT2: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Opens a path of several segments beneath `dir`: `openat2` with `RESOLVE_BENEATH |
/// RESOLVE_NO_SYMLINKS` where the kernel has it (Linux 5.6), else one component at a time.
fn open_nested(dir: BorrowedFd<'_>, rel: &str) -> rustix::io::Result<OwnedFd> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use rustix::fs::ResolveFlags;
        use std::sync::atomic::Ordering;
        if OPENAT2.load(Ordering::Relaxed) != 2 {
            let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
            match rustix::fs::openat2(dir, rel, FILE, Mode::empty(), resolve) {
                // Not in this kernel, or refused by a sandbox's system-call filter.
                Err(Errno::NOSYS | Errno::PERM | Errno::INVAL) => OPENAT2.store(2, Ordering::Relaxed),
                // Leaving the folder is only possible through a link here (no `..` gets this far).
                Err(Errno::XDEV) => return Err(Errno::LOOP),
                other => {
                    OPENAT2.store(1, Ordering::Relaxed);
                    return other;
                }
            }
        }
    }
    open_by_components(dir, rel)
}

/// The portable Unix way: each folder on the way opened with `O_NOFOLLOW | O_DIRECTORY`
/// relative to the one before, then the file relative to the last.
fn open_by_components(dir: BorrowedFd<'_>, rel: &str) -> rustix::io::Result<OwnedFd> {
    let (folders, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    let mut held: Option<OwnedFd> = None;
    for segment in folders.split('/').filter(|s| !s.is_empty()) {
        let at = held.as_ref().map_or(dir, |fd| fd.as_fd());
        let next = rustix::fs::openat(at, segment, FOLDER, Mode::empty()).map_err(|e| match e {
            // A link to a folder fails O_DIRECTORY | O_NOFOLLOW with ELOOP or ENOTDIR.
            Errno::NOTDIR if is_link(at, segment) => Errno::LOOP,
            other => other,
        })?;
        held = Some(next);
    }
    let at = held.as_ref().map_or(dir, |fd| fd.as_fd());
    rustix::fs::openat(at, name, FILE, Mode::empty())
}

fn is_link(dir: BorrowedFd<'_>, name: &str) -> bool {
    rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)
        .is_ok_and(|st| FileType::from_raw_mode(st.st_mode) == FileType::Symlink)
}

/// The opened descriptor's own `fstat` decides: a regular file within `limit`, or the refusal.
fn checked(fd: OwnedFd, limit: u64, rel: &str) -> Result<OpenFile<'_>, FileError> {
    let st = rustix::fs::fstat(&fd).map_err(|e| FileError::io(rel, e.into()))?;
    OpenFile::checked(fs::File::from(fd), stat_of(&st), limit, rel)
}

/// An `open` refusal in the reader's words: a link is [`FileError::Symlink`] (`ELOOP` from
/// `O_NOFOLLOW` or `RESOLVE_NO_SYMLINKS`), a socket [`FileError::NotRegular`] (`ENXIO`).
fn refused(e: Errno, rel: &str) -> FileError {
    match e {
        Errno::LOOP | Errno::MLINK => FileError::Symlink { path: rel.to_string() },
        Errno::NXIO => FileError::NotRegular { path: rel.to_string(), kind: Kind::Socket },
        other => FileError::io(rel, other.into()),
    }
}

fn folder_error(rel: &str, e: Errno) -> FileError {
    FileError::io(rel, e.into())
}

fn kind_of_type(kind: FileType) -> Kind {
    match kind {
        FileType::RegularFile => Kind::File,
        FileType::Directory => Kind::Dir,
        FileType::Symlink => Kind::Symlink,
        FileType::Fifo => Kind::Fifo,
        FileType::Socket => Kind::Socket,
        FileType::CharacterDevice => Kind::CharDevice,
        FileType::BlockDevice => Kind::BlockDevice,
        _ => Kind::Other,
    }
}

#[allow(clippy::useless_conversion)] // `st_mode` is a u16 on some Unix targets
fn kind_of_mode(mode: impl Into<u32>) -> Kind {
    kind_of_type(FileType::from_raw_mode(mode.into() as _))
}

/// The size, permission bits and modification time, as the portable walk reads them from
/// `fs::Metadata`.
#[allow(clippy::useless_conversion, clippy::unnecessary_cast)] // field types differ across Unix targets
fn stat_of(st: &rustix::fs::Stat) -> Stat {
    let secs = st.st_mtime as i64;
    let nanos = st.st_mtime_nsec as u32;
    let modified = u64::try_from(secs)
        .ok()
        .map(|s| SystemTime::UNIX_EPOCH + Duration::from_secs(s) + Duration::from_nanos(u64::from(nanos)));
    Stat {
        kind: kind_of_mode(st.st_mode),
        size: st.st_size as u64,
        unix_mode: Some(u32::from(st.st_mode) & 0o7777),
        modified,
    }
}

/// For tests: the component-by-component open, whatever the kernel has.
#[cfg(test)]
pub(super) fn open_by_components_for_test<'p>(
    dir: &super::SkillDir,
    rel: &'p str,
    limit: u64,
) -> Result<OpenFile<'p>, FileError> {
    let anchor = dir.root().anchor();
    let fd = open_by_components(anchor.as_fd(), rel).map_err(|e| refused(e, rel))?;
    checked(fd, limit, rel)
}
