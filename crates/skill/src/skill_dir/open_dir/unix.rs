//! The Unix folder handle: a readable directory descriptor, with every entry opened, created,
//! renamed and removed relative to it (`openat`, `mkdirat`, `renameat`, `unlinkat`), never
//! following a link.

use std::ffi::{CStr, CString};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use rustix::fd::{AsFd, OwnedFd};
use rustix::fs::{AtFlags, Dir, Mode, OFlags};
use rustix::io::Errno;

use super::super::unix::{kind_of_stat, open_checked_at, Root};
use super::super::{FileError, Kind, OpenFile};

/// How a folder is held: readable (to be listed and fsynced), never through a link.
const FOLDER: OFlags = OFlags::RDONLY.union(OFlags::CLOEXEC).union(OFlags::DIRECTORY).union(OFlags::NOFOLLOW);
/// How a new file is created: never through a link, never over anything already there.
const NEW_FILE: OFlags = OFlags::WRONLY
    .union(OFlags::CREATE)
    .union(OFlags::EXCL)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC)
    .union(OFlags::NOCTTY);
/// Deeper than any skill folder is allowed to be, by far: a removal refuses to recurse further.
const MAX_REMOVE_DEPTH: u32 = 256;
/// How many times a folder is emptied before its removal gives up.
const REMOVE_PASSES: u32 = 3;

#[derive(Debug)]
pub(super) struct Handle {
    fd: OwnedFd,
}

impl Handle {
    pub(super) fn open_named(path: &Path) -> Result<Handle, FileError> {
        rustix::fs::open(path, FOLDER.difference(OFlags::NOFOLLOW), Mode::empty())
            .map(|fd| Handle { fd })
            .map_err(|e| match e {
                Errno::NOENT => FileError::NotFound(path.to_path_buf()),
                Errno::NOTDIR => FileError::NotADirectory(path.to_path_buf()),
                other => FileError::FolderIo { path: path.to_path_buf(), source: other.into() },
            })
    }

    pub(super) fn try_clone(&self) -> io::Result<Handle> {
        Ok(Handle { fd: self.fd.try_clone()? })
    }

    pub(super) fn child(&self, name: &str) -> Result<Handle, FileError> {
        rustix::fs::openat(&self.fd, name, FOLDER, Mode::empty()).map(|fd| Handle { fd }).map_err(|e| match (
            e,
            self.kind_of(name),
        ) {
            (Errno::LOOP, _) | (Errno::NOTDIR, Some(Kind::Symlink)) => {
                FileError::Symlink { path: name.to_string() }
            }
            (Errno::NOTDIR, _) => FileError::NotADirectory(PathBuf::from(name)),
            (other, _) => FileError::io(name, other.into()),
        })
    }

    pub(super) fn make_dir(&self, name: &str, mode: u32) -> io::Result<()> {
        Ok(rustix::fs::mkdirat(&self.fd, name, Mode::from_raw_mode(mode as _))?)
    }

    pub(super) fn create_file(&self, name: &str, mode: u32) -> io::Result<fs::File> {
        let fd = rustix::fs::openat(&self.fd, name, NEW_FILE, Mode::from_raw_mode(mode as _))?;
        Ok(fs::File::from(fd))
    }

    pub(super) fn kind_of(&self, name: &str) -> Option<Kind> {
        let st = rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW).ok()?;
        Some(kind_of_stat(&st))
    }

    pub(super) fn open_file<'p>(&self, name: &'p str, limit: u64) -> Result<OpenFile<'p>, FileError> {
        open_checked_at(self.fd.as_fd(), name, limit)
    }

    pub(super) fn rename(&self, from: &str, into: &Handle, to: &str) -> io::Result<()> {
        Ok(rustix::fs::renameat(&self.fd, from, &into.fd, to)?)
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub(super) fn exchange(&self, a: &str, with: &Handle, b: &str) -> io::Result<()> {
        use rustix::fs::RenameFlags;
        Ok(rustix::fs::renameat_with(&self.fd, a, &with.fd, b, RenameFlags::EXCHANGE)?)
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    pub(super) fn exchange(&self, _a: &str, _with: &Handle, _b: &str) -> io::Result<()> {
        Err(io::Error::new(io::ErrorKind::Unsupported, "no atomic exchange"))
    }

    pub(super) fn symlink(&self, target: &str, name: &str) -> io::Result<()> {
        Ok(rustix::fs::symlinkat(target, &self.fd, name)?)
    }

    pub(super) fn read_link(&self, name: &str) -> io::Result<String> {
        let target = rustix::fs::readlinkat(&self.fd, name, Vec::new())?;
        target
            .into_string()
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "a link target that is not UTF-8"))
    }

    pub(super) fn remove_file(&self, name: &str) -> io::Result<()> {
        Ok(rustix::fs::unlinkat(&self.fd, name, AtFlags::empty())?)
    }

    /// Removes `name`: a folder with everything in it (each entry relative to its folder's own
    /// descriptor), anything else with one `unlinkat`.
    pub(super) fn remove_tree(&self, name: &str) -> io::Result<()> {
        self.remove_entry(&CString::new(name)?, 0)
    }

    fn remove_entry(&self, name: &CStr, depth: u32) -> io::Result<()> {
        let st = rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW)?;
        if kind_of_stat(&st) != Kind::Dir {
            return Ok(rustix::fs::unlinkat(&self.fd, name, AtFlags::empty())?);
        }
        if depth > MAX_REMOVE_DEPTH {
            return Err(io::Error::other("folder nested too deep to remove"));
        }
        let folder = match rustix::fs::openat(&self.fd, name, FOLDER, Mode::empty()) {
            Ok(fd) => Handle { fd },
            // Swapped for a link or a file since the `statat`: remove that instead.
            Err(Errno::LOOP | Errno::NOTDIR) => {
                return Ok(rustix::fs::unlinkat(&self.fd, name, AtFlags::empty())?)
            }
            Err(e) => return Err(e.into()),
        };
        // Another process may add an entry while the folder is emptied: list it again.
        for _ in 0..REMOVE_PASSES {
            for entry in folder.entry_names()? {
                folder.remove_entry(&entry, depth + 1)?;
            }
            match rustix::fs::unlinkat(&self.fd, name, AtFlags::REMOVEDIR) {
                Err(Errno::NOTEMPTY) => continue,
                other => return Ok(other?),
            }
        }
        Err(Errno::NOTEMPTY.into())
    }

    /// The names in the folder (other than `.` and `..`), listed through its own descriptor.
    fn entry_names(&self) -> io::Result<Vec<CString>> {
        let mut names = Vec::new();
        let mut dir = Dir::read_from(&self.fd)?;
        while let Some(entry) = dir.read() {
            let entry = entry?;
            if !matches!(entry.file_name().to_bytes(), b"." | b"..") {
                names.push(entry.file_name().to_owned());
            }
        }
        Ok(names)
    }

    pub(super) fn set_mode(&self, mode: u32) -> io::Result<()> {
        Ok(rustix::fs::fchmod(&self.fd, Mode::from_raw_mode(mode as _))?)
    }

    pub(super) fn sync(&self) -> io::Result<()> {
        Ok(rustix::fs::fsync(&self.fd)?)
    }

    pub(super) fn skill_root(&self, name: &str, abs: PathBuf) -> Result<Root, FileError> {
        Root::open_in(self.fd.as_fd(), name, abs)
    }
}
