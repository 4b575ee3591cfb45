//! The folder walk, written once: junk skipped, symbolic links refused, depth and file count
//! bounded. How a folder is listed and its entries reached is a [`Folder`]'s job: the portable
//! [`PathFolder`] here (by path, with `std::fs`), and on Unix the handle-relative folder in
//! [`super::at`], which the validate-only reading uses.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::MAX_FILE_BYTES;
use super::{
    io, read_needed, unix_mode, validation_only, within_limit, LoadError, Reading, MAX_DEPTH, MAX_FILES,
};
use crate::files;
use crate::package::PackageFile;
use crate::validate::{self, Needs, Profile};

/// What a folder entry is, as far as the walk cares.
pub(super) enum Kind {
    File,
    Dir,
    Symlink,
    /// A socket, device or pipe: not part of a skill, skipped.
    Other,
}

/// One open folder of a skill. Implementations make the system calls; the rules stay in [`walk`].
pub(super) trait Folder: Sized {
    /// An entry as the listing returns it.
    type Entry;
    /// The next entry other than `.` and `..`, `None` at the end.
    fn next_entry(&mut self) -> Option<Result<Self::Entry, LoadError>>;
    /// The entry's name, which must be UTF-8 (package paths are text).
    fn name(&self, entry: &Self::Entry) -> Result<String, LoadError>;
    /// The entry's kind, without following a symbolic link.
    fn kind(&self, entry: &Self::Entry) -> Result<Kind, LoadError>;
    /// Opens the sub-folder `entry`.
    fn open(&self, entry: &Self::Entry) -> Result<Self, LoadError>;
    /// Reads the regular file `entry`, whose package path is `path`.
    fn read(&self, entry: &Self::Entry, path: String) -> Result<PackageFile, LoadError>;
}

/// Appends every regular file under `folder` (package path `rel`, `depth` levels down) to `out`.
pub(super) fn walk<F: Folder>(
    mut folder: F,
    rel: &str,
    depth: usize,
    out: &mut Vec<PackageFile>,
) -> Result<(), LoadError> {
    if depth > MAX_DEPTH {
        return Err(LoadError::TooDeep(rel.to_string()));
    }
    while let Some(entry) = folder.next_entry() {
        let entry = entry?;
        let path = child_path(rel, folder.name(&entry)?);
        if files::is_junk(&path) {
            continue;
        }
        match folder.kind(&entry)? {
            Kind::Symlink => return Err(LoadError::Symlink(path)),
            Kind::Dir => walk(folder.open(&entry)?, &path, depth + 1, out)?,
            Kind::File => {
                out.push(folder.read(&entry, path)?);
                if out.len() > MAX_FILES {
                    return Err(LoadError::TooManyFiles);
                }
            }
            Kind::Other => {}
        }
    }
    Ok(())
}

/// The package path of `name` inside the folder at package path `rel`.
fn child_path(rel: &str, name: String) -> String {
    if rel.is_empty() {
        name
    } else {
        format!("{rel}/{name}")
    }
}

/// A folder reached by its path, with `std::fs`: works everywhere, and is what reads a package
/// whole (to store it) on every platform.
pub(super) struct PathFolder {
    abs: PathBuf,
    entries: fs::ReadDir,
    reading: Reading,
}

impl PathFolder {
    /// Lists the folder at `abs`; its files will be read as `reading` says.
    pub(super) fn open(abs: &Path, reading: Reading) -> Result<Self, LoadError> {
        let entries = fs::read_dir(abs).map_err(io(abs))?;
        Ok(PathFolder { abs: abs.to_path_buf(), entries, reading })
    }
}

impl Folder for PathFolder {
    type Entry = fs::DirEntry;

    fn next_entry(&mut self) -> Option<Result<fs::DirEntry, LoadError>> {
        Some(self.entries.next()?.map_err(io(&self.abs)))
    }

    fn name(&self, entry: &fs::DirEntry) -> Result<String, LoadError> {
        entry.file_name().into_string().map_err(|_| LoadError::NonUtf8Name(entry.path()))
    }

    fn kind(&self, entry: &fs::DirEntry) -> Result<Kind, LoadError> {
        let kind = entry.file_type().map_err(io(&entry.path()))?;
        Ok(if kind.is_symlink() {
            Kind::Symlink
        } else if kind.is_dir() {
            Kind::Dir
        } else if kind.is_file() {
            Kind::File
        } else {
            Kind::Other
        })
    }

    fn open(&self, entry: &fs::DirEntry) -> Result<Self, LoadError> {
        PathFolder::open(&entry.path(), self.reading)
    }

    fn read(&self, entry: &fs::DirEntry, path: String) -> Result<PackageFile, LoadError> {
        match self.reading {
            Reading::Whole => read_file(&entry.path(), path),
            Reading::ForRules(profile) => read_for_rules(entry, path, profile),
        }
    }
}

/// Opens the file once and sizes it from the open handle, so a file costs an open, an fstat and
/// its reads.
fn read_file(abs: &Path, path: String) -> Result<PackageFile, LoadError> {
    let mut file = fs::File::open(abs).map_err(io(abs))?;
    let meta = file.metadata().map_err(io(abs))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(LoadError::FileTooLarge { path, bytes: meta.len() });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.read_to_end(&mut bytes).map_err(io(abs))?;
    Ok(PackageFile::new(path, bytes, unix_mode(&meta)))
}

/// Reads what the rules of `profile` look at (by path; on Unix this reading uses [`super::at`]):
/// a file they only size costs one `stat` relative to its folder; any other an open, an fstat and
/// the reads of its needed head (one `read` for most).
fn read_for_rules(entry: &fs::DirEntry, path: String, profile: Profile) -> Result<PackageFile, LoadError> {
    let needs = validate::needs(&path, profile);
    if needs == Needs::Head(0) {
        let meta = entry.metadata().map_err(io(&entry.path()))?;
        within_limit(&path, meta.len())?;
        return Ok(validation_only(path, Vec::new(), meta.len(), unix_mode(&meta)));
    }
    let abs = entry.path();
    let file = fs::File::open(&abs).map_err(io(&abs))?;
    let meta = file.metadata().map_err(io(&abs))?;
    within_limit(&path, meta.len())?;
    let bytes = read_needed(&file, meta.len() as usize, needs).map_err(io(&abs))?;
    Ok(validation_only(path, bytes, meta.len(), unix_mode(&meta)))
}
