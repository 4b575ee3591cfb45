//! What the loader does with each entry the folder walk ([`crate::skill_dir::walk`]) meets:
//! a link or a special file refuses the folder, a regular file is read as the [`Reading`] says,
//! and the file count and the files' total size are bounded.

use super::{read_needed, validation_only, LoadError, Reading, MAX_FILES, MAX_FILE_BYTES};
use crate::package::PackageFile;
use crate::skill_dir::walk::{self as dir_walk, Listing, Visit};
use crate::skill_dir::{FileError, Kind, SkillDir};
use crate::validate::{self, Needs};

/// The running total of the sizes of the files met, against the folder's limit.
struct Total {
    bytes: u64,
    limit: u64,
}

impl Total {
    fn new(limit: u64) -> Self {
        Total { bytes: 0, limit }
    }

    /// Adds a file of `size` bytes; over the limit, the folder is refused.
    fn add(&mut self, size: u64) -> Result<(), LoadError> {
        self.bytes = self.bytes.saturating_add(size);
        if self.bytes > self.limit {
            return Err(LoadError::TooLarge { total: self.bytes, limit: self.limit });
        }
        Ok(())
    }
}

/// Sizes every regular file under `dir` with a `stat` that opens and follows nothing, and
/// refuses the folder before anything is read: for a file over [`MAX_FILE_BYTES`] (as the
/// reading walk would), more than [`MAX_FILES`] files, or files adding up to more than `limit`
/// bytes. Links and special files are left to the reading walk, which refuses them.
pub(super) fn check_total(dir: &SkillDir, limit: u64) -> Result<(), LoadError> {
    let (mut total, mut files) = (Total::new(limit), 0usize);
    dir_walk::walk_ref(dir, &mut |visit| {
        if visit.kind != Kind::File {
            return Ok(());
        }
        files += 1;
        if files > MAX_FILES {
            return Err(LoadError::TooManyFiles);
        }
        let size = visit.stat()?.size;
        if size > MAX_FILE_BYTES {
            let path = visit.path.to_string();
            return Err(FileError::TooLarge { path, size, limit: MAX_FILE_BYTES }.into());
        }
        total.add(size)
    })
}

/// Every regular file under `dir`, in walk order, read as `reading` says, never more than
/// `limit` bytes in all.
pub(super) fn read_files(dir: SkillDir, reading: Reading, limit: u64) -> Result<Vec<PackageFile>, LoadError> {
    let (mut files, mut total) = (Vec::new(), Total::new(limit));
    dir_walk::walk(dir, &mut |visit| collect(visit, reading, &mut total, &mut files))?;
    Ok(files)
}

/// [`read_files`] over any listing (tests hold the portable one to the Unix one).
#[cfg(test)]
pub(super) fn read_files_with<F: Listing>(root: F, reading: Reading) -> Result<Vec<PackageFile>, LoadError> {
    let (mut files, mut total) = (Vec::new(), Total::new(super::MAX_TOTAL_BYTES));
    dir_walk::walk_folder(root, "", 0, &mut |visit| collect(visit, reading, &mut total, &mut files))?;
    Ok(files)
}

fn collect<F: Listing>(
    visit: &Visit<'_, F>,
    reading: Reading,
    total: &mut Total,
    files: &mut Vec<PackageFile>,
) -> Result<(), LoadError> {
    files.push(read(visit, reading, total)?);
    if files.len() > MAX_FILES {
        return Err(LoadError::TooManyFiles);
    }
    Ok(())
}

/// Reads one entry: only a regular file is part of a skill.
fn read<F: Listing>(
    visit: &Visit<'_, F>,
    reading: Reading,
    total: &mut Total,
) -> Result<PackageFile, LoadError> {
    let path = visit.path.to_string();
    match visit.kind {
        Kind::File => {}
        Kind::Symlink => return Err(FileError::Symlink { path }.into()),
        kind => return Err(FileError::NotRegular { path, kind }.into()),
    }
    match reading {
        Reading::Whole => {
            let file = visit.open(MAX_FILE_BYTES)?;
            let (size, mode) = (file.stat().size, file.stat().unix_mode);
            total.add(size)?;
            let bytes = file.read_all()?;
            // A file that grew after its `fstat` counts what was read.
            total.add((bytes.len() as u64).saturating_sub(size))?;
            Ok(PackageFile::new(path, bytes, mode))
        }
        Reading::ForRules { profile, limit } => {
            read_for_rules(visit, path, validate::needs(visit.path, profile), limit, total)
        }
    }
}

/// Reads what the rules look at: a file they only size costs one `stat` relative to its folder;
/// any other an open, an fstat and the reads of its needed head (one `read` for most). A file
/// over `limit` is sized and not read: the rules report its size; SKILL.md and the config,
/// which the rules read whole, refuse the folder instead. Every size counts towards `total`
/// before the file is read.
fn read_for_rules<F: Listing>(
    visit: &Visit<'_, F>,
    path: String,
    needs: Needs,
    limit: u64,
    total: &mut Total,
) -> Result<PackageFile, LoadError> {
    if needs == Needs::Head(0) {
        let stat = visit.stat()?;
        match stat.kind {
            Kind::File => {}
            Kind::Symlink => return Err(FileError::Symlink { path }.into()),
            kind => return Err(FileError::NotRegular { path, kind }.into()),
        }
        if stat.size > MAX_FILE_BYTES {
            return Err(FileError::TooLarge { path, size: stat.size, limit: MAX_FILE_BYTES }.into());
        }
        total.add(stat.size)?;
        return Ok(validation_only(path, Vec::new(), stat.size, stat.unix_mode));
    }
    let file = visit.open(MAX_FILE_BYTES)?;
    let (size, mode) = (file.stat().size, file.stat().unix_mode);
    if size > limit {
        if needs == Needs::All {
            return Err(FileError::TooLarge { path, size, limit }.into());
        }
        total.add(size)?;
        return Ok(validation_only(path, Vec::new(), size, mode));
    }
    total.add(size)?;
    let bytes = read_needed(file.file(), size as usize, needs).map_err(|e| FileError::io(&path, e))?;
    Ok(validation_only(path, bytes, size, mode))
}
