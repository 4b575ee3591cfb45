//! The walk through a skill folder, written once for every reader that needs the whole tree
//! (validation, storage, folder import, fingerprints): junk skipped, links never followed,
//! depth bounded. Each sub-folder is opened relative to its parent's handle with `O_NOFOLLOW`,
//! and each entry is handed to the visitor, which may `stat`, open or read it relative to the
//! same handle. What the entries mean (a link refused, a file read) is the visitor's business.

use std::path::PathBuf;

use super::{native, FileError, Kind, OpenFile, SkillDir, Stat};
use crate::files;
use crate::load::{LoadError, MAX_DEPTH};

/// The system calls of one open folder; the Unix handle folder and the portable path folder
/// both make them, so the walk's rules are written once and tests hold the two to the same
/// behaviour.
pub trait Listing: Sized {
    /// An entry as the listing returns it.
    type Entry;
    /// The next entry other than `.` and `..`; `rel` is the folder's package path, for errors.
    fn next_entry(&mut self, rel: &str) -> Option<Result<Self::Entry, FileError>>;
    /// The entry's name when it is UTF-8.
    fn name<'e>(&self, entry: &'e Self::Entry) -> Option<&'e str>;
    /// The entry's path, for messages.
    fn shown(&self, entry: &Self::Entry) -> PathBuf;
    /// What the entry is, without following a link.
    fn kind(&self, entry: &Self::Entry, rel: &str) -> Result<Kind, FileError>;
    /// Opens the sub-folder `entry`; a link swapped in meanwhile is refused.
    fn open_folder(&self, entry: &Self::Entry, rel: &str) -> Result<Self, FileError>;
    /// Opens the regular file `entry`, checked on the opened handle.
    fn open_file<'p>(&self, entry: &Self::Entry, rel: &'p str, limit: u64)
        -> Result<OpenFile<'p>, FileError>;
    /// Kind, size, mode and time without following a link or opening anything.
    fn stat(&self, entry: &Self::Entry, rel: &str) -> Result<Stat, FileError>;
    /// Where the link `entry` points.
    fn read_link(&self, entry: &Self::Entry, rel: &str) -> Result<PathBuf, FileError>;
}

macro_rules! listing_for {
    ($folder:ty, $entry:ty) => {
        impl Listing for $folder {
            type Entry = $entry;
            fn next_entry(&mut self, rel: &str) -> Option<Result<$entry, FileError>> {
                <$folder>::next_entry(self, rel)
            }
            fn name<'e>(&self, entry: &'e $entry) -> Option<&'e str> {
                entry.name()
            }
            fn shown(&self, entry: &$entry) -> PathBuf {
                <$folder>::shown(self, entry)
            }
            fn kind(&self, entry: &$entry, rel: &str) -> Result<Kind, FileError> {
                <$folder>::kind(self, entry, rel)
            }
            fn open_folder(&self, entry: &$entry, rel: &str) -> Result<Self, FileError> {
                <$folder>::open_folder(self, entry, rel)
            }
            fn open_file<'p>(
                &self,
                entry: &$entry,
                rel: &'p str,
                limit: u64,
            ) -> Result<OpenFile<'p>, FileError> {
                <$folder>::open_file(self, entry, rel, limit)
            }
            fn stat(&self, entry: &$entry, rel: &str) -> Result<Stat, FileError> {
                <$folder>::stat(self, entry, rel)
            }
            fn read_link(&self, entry: &$entry, rel: &str) -> Result<PathBuf, FileError> {
                <$folder>::read_link(self, entry, rel)
            }
        }
    };
}

#[cfg(unix)]
listing_for!(super::unix::Folder, super::unix::Entry);
#[cfg(any(not(unix), test))]
listing_for!(super::portable::Folder, super::portable::Entry);

/// One entry met by the walk, other than a folder (folders are descended into).
pub struct Visit<'a, F: Listing = native::Folder> {
    /// The package path: relative to the skill folder, `/` between segments.
    pub path: &'a str,
    /// What the listing says the entry is (a link is never followed to say more).
    pub kind: Kind,
    folder: &'a F,
    entry: &'a F::Entry,
}

impl<'a, F: Listing> Visit<'a, F> {
    /// Kind, size, mode and time, without opening the entry.
    pub fn stat(&self) -> Result<Stat, FileError> {
        self.folder.stat(self.entry, self.path)
    }

    /// Opens the entry as a regular file of at most `limit` bytes.
    pub fn open(&self, limit: u64) -> Result<OpenFile<'a>, FileError> {
        self.folder.open_file(self.entry, self.path, limit)
    }

    /// Where the entry, a link, points.
    pub fn read_link(&self) -> Result<PathBuf, FileError> {
        self.folder.read_link(self.entry, self.path)
    }
}

/// Visits every entry beneath `dir` that is not junk ([`files::is_junk`]), descending into
/// folders down to [`MAX_DEPTH`] levels; a deeper folder is [`LoadError::TooDeep`], a name that
/// is not UTF-8 [`LoadError::NonUtf8Name`]. The visitor's first error ends the walk.
pub fn walk(
    dir: SkillDir,
    visit: &mut dyn FnMut(&Visit<'_>) -> Result<(), LoadError>,
) -> Result<(), LoadError> {
    walk_folder(dir.into_folder()?, "", 0, visit)
}

/// [`walk`], leaving `dir` open so that it can be walked again (sizing a folder before reading it).
pub fn walk_ref(
    dir: &SkillDir,
    visit: &mut dyn FnMut(&Visit<'_>) -> Result<(), LoadError>,
) -> Result<(), LoadError> {
    walk_folder(dir.folder()?, "", 0, visit)
}

/// [`walk`] over any [`Listing`], from the folder at package path `rel`, `depth` levels down.
pub fn walk_folder<F: Listing>(
    mut folder: F,
    rel: &str,
    depth: usize,
    visit: &mut dyn FnMut(&Visit<'_, F>) -> Result<(), LoadError>,
) -> Result<(), LoadError> {
    if depth > MAX_DEPTH {
        return Err(LoadError::TooDeep(rel.to_string()));
    }
    while let Some(entry) = folder.next_entry(rel) {
        let entry = entry?;
        let name = folder.name(&entry).ok_or_else(|| LoadError::NonUtf8Name(folder.shown(&entry)))?;
        let path = child_path(rel, name);
        if files::is_junk(&path) {
            continue;
        }
        match folder.kind(&entry, &path)? {
            Kind::Dir => walk_folder(folder.open_folder(&entry, &path)?, &path, depth + 1, visit)?,
            kind => visit(&Visit { path: &path, kind, folder: &folder, entry: &entry })?,
        }
    }
    Ok(())
}

/// The package path of `name` inside the folder at package path `rel`.
fn child_path(rel: &str, name: &str) -> String {
    if rel.is_empty() {
        name.to_string()
    } else {
        format!("{rel}/{name}")
    }
}
