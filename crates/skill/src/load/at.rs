//! The validate-only folder on Unix. Each folder is opened once and its entries are opened, sized
//! and descended into relative to that handle, so the kernel resolves one name per file instead
//! of the whole absolute path, and no path is built for a file that is read without error. The
//! walk's rules are [`super::walk`]'s.

use std::ffi::{CStr, OsStr};
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fd::{AsFd, BorrowedFd, OwnedFd};
use rustix::fs::{AtFlags, Dir, DirEntry, FileType, Mode, OFlags};

use super::walk::{Folder, Kind};
use super::{read_needed, validation_only, within_limit, LoadError};
use crate::package::PackageFile;
use crate::validate::{self, Needs, Profile};

const READ: OFlags = OFlags::RDONLY.union(OFlags::CLOEXEC).union(OFlags::NOFOLLOW);

/// An open folder of a skill being validated, listed through its own handle.
pub(super) struct HandleFolder {
    entries: Dir,
    /// The folder's path, for error messages only.
    abs: PathBuf,
    profile: Profile,
}

impl HandleFolder {
    /// Opens the skill folder `dir`. The folder itself may be reached through a symbolic link (as
    /// `fs::metadata` and `fs::read_dir` allow); nothing inside it may be one. Its open says
    /// whether it exists and is a folder, so it costs no separate `stat`.
    pub(super) fn open_root(dir: &Path, profile: Profile) -> Result<Self, LoadError> {
        let root = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::DIRECTORY;
        let fd = rustix::fs::open(dir, root, Mode::empty()).map_err(|e| match e {
            rustix::io::Errno::NOENT => LoadError::NotFound(dir.to_path_buf()),
            rustix::io::Errno::NOTDIR => LoadError::NotADirectory(dir.to_path_buf()),
            other => io(dir)(other),
        })?;
        HandleFolder::new(fd, dir.to_path_buf(), profile)
    }

    fn new(fd: OwnedFd, abs: PathBuf, profile: Profile) -> Result<Self, LoadError> {
        let entries = Dir::new(fd).map_err(io(&abs))?;
        Ok(HandleFolder { entries, abs, profile })
    }

    fn fd(&self) -> Result<BorrowedFd<'_>, LoadError> {
        self.entries.fd().map_err(io(&self.abs))
    }

    /// The entry's path, for error messages.
    fn shown(&self, entry: &DirEntry) -> PathBuf {
        self.abs.join(OsStr::from_bytes(entry.file_name().to_bytes()))
    }
}

impl Folder for HandleFolder {
    type Entry = DirEntry;

    fn next_entry(&mut self) -> Option<Result<DirEntry, LoadError>> {
        loop {
            match self.entries.read()? {
                Ok(e) if matches!(e.file_name().to_bytes(), b"." | b"..") => continue,
                Ok(e) => return Some(Ok(e)),
                Err(e) => return Some(Err(io(&self.abs)(e))),
            }
        }
    }

    fn name(&self, entry: &DirEntry) -> Result<String, LoadError> {
        let text = std::str::from_utf8(entry.file_name().to_bytes());
        text.map(str::to_string).map_err(|_| LoadError::NonUtf8Name(self.shown(entry)))
    }

    fn kind(&self, entry: &DirEntry) -> Result<Kind, LoadError> {
        let kind = match entry.file_type() {
            FileType::Unknown => rustix::fs::statat(self.fd()?, entry.file_name(), AtFlags::SYMLINK_NOFOLLOW)
                .map(|st| FileType::from_raw_mode(st.st_mode))
                .map_err(io(&self.shown(entry)))?,
            known => known,
        };
        Ok(match kind {
            FileType::Symlink => Kind::Symlink,
            FileType::Directory => Kind::Dir,
            FileType::RegularFile => Kind::File,
            _ => Kind::Other,
        })
    }

    fn open(&self, entry: &DirEntry) -> Result<Self, LoadError> {
        let sub = self.shown(entry);
        let fd = rustix::fs::openat(self.fd()?, entry.file_name(), READ | OFlags::DIRECTORY, Mode::empty())
            .map_err(io(&sub))?;
        HandleFolder::new(fd, sub, self.profile)
    }

    fn read(&self, entry: &DirEntry, path: String) -> Result<PackageFile, LoadError> {
        read_file(self.fd()?, entry.file_name(), || self.shown(entry), path, self.profile)
    }
}

/// What the rules read of one file: a `stat` alone when they only size it, else an open, an
/// fstat and the reads of the needed head.
fn read_file(
    dir: BorrowedFd<'_>,
    name: &CStr,
    shown: impl Fn() -> PathBuf,
    path: String,
    profile: Profile,
) -> Result<PackageFile, LoadError> {
    let failed = |e: rustix::io::Errno| LoadError::Io { path: shown(), source: e.into() };
    let needs = validate::needs(&path, profile);
    if needs == Needs::Head(0) {
        let st = rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW).map_err(failed)?;
        let (len, mode) = size_and_mode(&st);
        within_limit(&path, len)?;
        return Ok(validation_only(path, Vec::new(), len, mode));
    }
    let fd = rustix::fs::openat(dir, name, READ, Mode::empty()).map_err(failed)?;
    let st = rustix::fs::fstat(fd.as_fd()).map_err(failed)?;
    let (len, mode) = size_and_mode(&st);
    within_limit(&path, len)?;
    let bytes = read_needed(&fs::File::from(fd), len as usize, needs)
        .map_err(|e| LoadError::Io { path: shown(), source: e })?;
    Ok(validation_only(path, bytes, len, mode))
}

/// The size and permission bits, as the portable walk reads them from `fs::Metadata`.
#[allow(clippy::useless_conversion)] // `st_mode` is a u16 on some Unix targets
fn size_and_mode(st: &rustix::fs::Stat) -> (u64, Option<u32>) {
    (st.st_size as u64, Some(u32::from(st.st_mode) & 0o7777))
}

fn io(path: &Path) -> impl FnOnce(rustix::io::Errno) -> LoadError + '_ {
    move |e| LoadError::Io { path: path.to_path_buf(), source: e.into() }
}
