//! The one safe way to write beneath a folder, the writers' side of [`super::SkillDir`]: the
//! folder is opened once and everything beneath it — sub-folders, new files, renames, the
//! removal of a whole tree, and the reads that decide what to write (a lock file) — is done
//! *relative to that handle*, never following a symbolic link, so another process swapping a
//! path between two system calls cannot send a write anywhere else. Used for the agents' skills
//! folders an install writes into (with `skillcase.lock`) and for the staging folders every copy
//! of a skill is written into before its rename.
//!
//! New files are created with `O_CREAT | O_EXCL | O_NOFOLLOW` (a link planted where a file is to
//! be written makes the write fail, never follow it), sub-folders are opened with `O_NOFOLLOW |
//! O_DIRECTORY`, files are read with `O_NONBLOCK` and checked on the opened descriptor (a FIFO
//! cannot hold a read, a device is refused), and renames and removals name an entry of the held
//! folder. On non-Unix systems a portable fallback does the same by path with `symlink_metadata`
//! checks; it refuses links but cannot close the swap race.

#[cfg(any(not(unix), test))]
mod portable;
#[cfg(unix)]
mod unix;

use std::fs;
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::{FileError, Kind, SkillDir};

#[cfg(not(unix))]
use portable as native;
#[cfg(unix)]
use unix as native;

/// How many times a fresh random name is tried before giving up.
const UNIQUE_TRIES: u32 = 64;

/// An open folder; everything beneath it is opened, created, renamed and removed through it.
#[derive(Debug)]
pub struct OpenDir {
    handle: native::Handle,
    abs: PathBuf,
}

impl OpenDir {
    /// Opens the folder a person named (a home folder, a project folder, a skills directory),
    /// following links in its path as the shell would.
    pub fn open_named(path: &Path) -> Result<OpenDir, FileError> {
        Ok(OpenDir { handle: native::Handle::open_named(path)?, abs: path.to_path_buf() })
    }

    /// [`OpenDir::open_named`], creating the folder and its missing parents first.
    pub fn create_named(path: &Path) -> Result<OpenDir, FileError> {
        fs::create_dir_all(path)
            .map_err(|source| FileError::FolderIo { path: path.to_path_buf(), source })?;
        OpenDir::open_named(path)
    }

    /// The folder's path as it was reached (for messages and reports).
    pub fn path(&self) -> &Path {
        &self.abs
    }

    /// A second handle on the same folder.
    pub fn try_clone(&self) -> io::Result<OpenDir> {
        Ok(OpenDir { handle: self.handle.try_clone()?, abs: self.abs.clone() })
    }

    /// The sub-folder `name` (one plain segment), never through a link: `None` when there is no
    /// such entry, [`FileError::Symlink`] for a link and [`FileError::NotADirectory`] for a file.
    pub fn child(&self, name: &str) -> Result<Option<OpenDir>, FileError> {
        check_segment(name)?;
        match self.handle.child(name) {
            Ok(handle) => Ok(Some(OpenDir { handle, abs: self.abs.join(name) })),
            Err(e) if e.is_not_found() && self.kind_of(name).is_none() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The sub-folder `name`, created (mode 0755 before the umask) when missing.
    pub fn child_or_create(&self, name: &str) -> Result<OpenDir, FileError> {
        if let Some(dir) = self.child(name)? {
            return Ok(dir);
        }
        match self.handle.make_dir(name, 0o755) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(FileError::io(name, e)),
        }
        self.child(name)?.ok_or_else(|| FileError::io(name, io::ErrorKind::NotFound.into()))
    }

    /// The folder at the relative path `rel` beneath this one (`None` when part of it is missing
    /// and `create` is false; created otherwise). A link on the way is followed only when where
    /// it leads is still beneath this folder (`.agents/skills` → `../.claude/skills`); one that
    /// leads outside, or that cannot be resolved, is [`FileError::NotBeneath`] naming the part of
    /// `rel` that is the link. What is finally opened is reached from this handle one component
    /// at a time without following anything, so a link swapped in meanwhile is refused.
    pub fn beneath(&self, rel: &str, create: bool) -> Result<Option<OpenDir>, FileError> {
        super::check_relative(rel)?;
        let mut at = self.try_clone().map_err(|e| FileError::io(rel, e))?;
        let mut walked = String::new();
        for segment in rel.split('/') {
            walked = if walked.is_empty() { segment.to_string() } else { format!("{walked}/{segment}") };
            // A link swapped in between the look and the open is refused like one leading out.
            let swapped = |e: FileError| match e {
                FileError::Symlink { .. } => FileError::NotBeneath { path: walked.clone() },
                other => other,
            };
            let next = match at.kind_of(segment) {
                Some(Kind::Symlink) => Some(self.through_link(&walked)?),
                None if !create => None,
                None => Some(at.child_or_create(segment).map_err(swapped)?),
                Some(_) => at.child(segment).map_err(swapped)?,
            };
            let Some(next) = next else { return Ok(None) };
            at = OpenDir { handle: next.handle, abs: self.abs.join(&walked) };
        }
        Ok(Some(at))
    }

    /// The folder the link at `walked` (relative to this folder) leads to, when it is beneath
    /// this folder, opened from here without following anything.
    fn through_link(&self, walked: &str) -> Result<OpenDir, FileError> {
        let outside = || FileError::NotBeneath { path: walked.to_string() };
        let base = fs::canonicalize(&self.abs).map_err(|e| FileError::io(walked, e))?;
        let target = fs::canonicalize(self.abs.join(walked)).map_err(|_| outside())?;
        let inner = target.strip_prefix(&base).map_err(|_| outside())?;
        let mut at = self.try_clone().map_err(|e| FileError::io(walked, e))?;
        for part in inner.components() {
            let Component::Normal(part) = part else { return Err(outside()) };
            let part = part.to_str().ok_or_else(outside)?;
            at = at.child(part)?.ok_or_else(outside)?;
        }
        Ok(at)
    }

    /// Makes a new sub-folder named `prefix` and a random suffix (mode 0700 until its writer says
    /// otherwise); returns its name and handle.
    pub fn make_unique_dir(&self, prefix: &str) -> io::Result<(String, OpenDir)> {
        for _ in 0..UNIQUE_TRIES {
            let name = unique_name(prefix);
            match self.handle.make_dir(&name, 0o700) {
                Ok(()) => {
                    let dir = self.child(&name).map_err(FileError::into_io)?;
                    return dir.map(|d| (name, d)).ok_or_else(|| io::ErrorKind::NotFound.into());
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::ErrorKind::AlreadyExists.into())
    }

    /// Creates the new file `name` with `mode` (exactly, whatever the umask); fails if anything
    /// — a file, a folder, a link — is already there, so a planted link is never written through.
    pub fn create_file(&self, name: &str, mode: u32) -> io::Result<fs::File> {
        check_segment(name).map_err(FileError::into_io)?;
        let file = self.handle.create_file(name, mode)?;
        set_file_mode(&file, mode)?;
        Ok(file)
    }

    /// [`OpenDir::create_file`] under a new name made of `prefix` and a random suffix.
    pub fn create_unique_file(&self, prefix: &str, mode: u32) -> io::Result<(String, fs::File)> {
        for _ in 0..UNIQUE_TRIES {
            let name = unique_name(prefix);
            match self.create_file(&name, mode) {
                Ok(file) => return Ok((name, file)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::ErrorKind::AlreadyExists.into())
    }

    /// What the entry `name` is, without following a link; `None` when there is none.
    pub fn kind_of(&self, name: &str) -> Option<Kind> {
        check_segment(name).ok()?;
        self.handle.kind_of(name)
    }

    /// The whole regular file `name`, at most `limit` bytes, read from the descriptor that was
    /// opened (`O_NOFOLLOW | O_NONBLOCK`, then `fstat`): `None` when there is no such entry; a
    /// link, FIFO, device or folder, or a file over `limit`, is refused before a byte is read.
    pub fn read_file(&self, name: &str, limit: u64) -> Result<Option<Vec<u8>>, FileError> {
        check_segment(name)?;
        match self.handle.open_file(name, limit) {
            Ok(file) => file.read_all().map(Some),
            Err(e) if e.is_not_found() && self.kind_of(name).is_none() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Renames the entry `from` of this folder to `to` in the folder `into` (this one or another
    /// on the same file system), replacing a file or empty folder there as `rename` does.
    pub fn rename(&self, from: &str, into: &OpenDir, to: &str) -> io::Result<()> {
        check_segment(from).and_then(|()| check_segment(to)).map_err(FileError::into_io)?;
        self.handle.rename(from, &into.handle, to)
    }

    /// Swaps the entries `a` of this folder and `b` of `with` in one atomic step (Linux
    /// `renameat2(RENAME_EXCHANGE)`); [`io::ErrorKind::Unsupported`] where the system has none.
    pub fn exchange(&self, a: &str, with: &OpenDir, b: &str) -> io::Result<()> {
        check_segment(a).and_then(|()| check_segment(b)).map_err(FileError::into_io)?;
        self.handle.exchange(a, &with.handle, b)
    }

    /// Creates the symbolic link `name` pointing at `target` (kept as written, usually relative
    /// to this folder); fails if anything is already there.
    pub fn symlink(&self, target: &str, name: &str) -> io::Result<()> {
        check_segment(name).map_err(FileError::into_io)?;
        self.handle.symlink(target, name)
    }

    /// [`OpenDir::symlink`] under a new name made of `prefix` and a random suffix.
    pub fn symlink_unique(&self, target: &str, prefix: &str) -> io::Result<String> {
        for _ in 0..UNIQUE_TRIES {
            let name = unique_name(prefix);
            match self.symlink(target, &name) {
                Ok(()) => return Ok(name),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::ErrorKind::AlreadyExists.into())
    }

    /// Where the link `name` points, as written; an error when `name` is not a link.
    pub fn read_link(&self, name: &str) -> io::Result<String> {
        check_segment(name).map_err(FileError::into_io)?;
        self.handle.read_link(name)
    }

    /// Removes the file (or link) `name`.
    pub fn remove_file(&self, name: &str) -> io::Result<()> {
        check_segment(name).map_err(FileError::into_io)?;
        self.handle.remove_file(name)
    }

    /// Removes the entry `name` and, when it is a folder, everything in it, never following a
    /// link (a link is removed, not what it points to).
    pub fn remove_tree(&self, name: &str) -> io::Result<()> {
        check_segment(name).map_err(FileError::into_io)?;
        self.handle.remove_tree(name)
    }

    /// Sets the folder's own permission bits.
    pub fn set_mode(&self, mode: u32) -> io::Result<()> {
        self.handle.set_mode(mode)
    }

    /// Makes the folder's entries (new names, renames, removals) durable.
    pub fn sync(&self) -> io::Result<()> {
        self.handle.sync()
    }

    /// The skill folder `name` inside this folder, opened as a listed folder (never a link), to be
    /// read like every skill folder.
    pub fn skill_dir(&self, name: &str) -> Result<SkillDir, FileError> {
        check_segment(name)?;
        Ok(SkillDir { root: self.handle.skill_root(name, self.abs.join(name))? })
    }
}

/// Refuses anything but one plain name: no separator, no `.` or `..`, no NUL.
fn check_segment(name: &str) -> Result<(), FileError> {
    if name.contains('/') {
        return Err(FileError::NotBeneath { path: name.to_string() });
    }
    super::check_relative(name)
}

/// `prefix` and 16 random hex digits.
fn unique_name(prefix: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    format!("{prefix}{:016x}", hasher.finish())
}

#[cfg(unix)]
fn set_file_mode(file: &fs::File, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_file_mode(_file: &fs::File, _mode: u32) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests;
