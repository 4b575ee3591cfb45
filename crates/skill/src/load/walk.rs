//! What the loader does with each entry the folder walk ([`crate::skill_dir::walk`]) meets:
//! a link or a special file refuses the folder, a regular file is read as the [`Reading`] says,
//! and the file count is bounded.

use super::{read_needed, validation_only, LoadError, Reading, MAX_FILES, MAX_FILE_BYTES};
use crate::package::PackageFile;
use crate::skill_dir::walk::{self as dir_walk, Listing, Visit};
use crate::skill_dir::{FileError, Kind, SkillDir};
use crate::validate::{self, Needs};

/// Every regular file under `dir`, in walk order, read as `reading` says.
pub(super) fn read_files(dir: SkillDir, reading: Reading) -> Result<Vec<PackageFile>, LoadError> {
    let mut files = Vec::new();
    dir_walk::walk(dir, &mut |visit| collect(visit, reading, &mut files))?;
    Ok(files)
}

/// [`read_files`] over any listing (tests hold the portable one to the Unix one).
#[cfg(test)]
pub(super) fn read_files_with<F: Listing>(root: F, reading: Reading) -> Result<Vec<PackageFile>, LoadError> {
    let mut files = Vec::new();
    dir_walk::walk_folder(root, "", 0, &mut |visit| collect(visit, reading, &mut files))?;
    Ok(files)
}

fn collect<F: Listing>(
    visit: &Visit<'_, F>,
    reading: Reading,
    files: &mut Vec<PackageFile>,
) -> Result<(), LoadError> {
    files.push(read(visit, reading)?);
    if files.len() > MAX_FILES {
        return Err(LoadError::TooManyFiles);
    }
    Ok(())
}

/// Reads one entry: only a regular file is part of a skill.
fn read<F: Listing>(visit: &Visit<'_, F>, reading: Reading) -> Result<PackageFile, LoadError> {
    let path = visit.path.to_string();
    match visit.kind {
        Kind::File => {}
        Kind::Symlink => return Err(FileError::Symlink { path }.into()),
        kind => return Err(FileError::NotRegular { path, kind }.into()),
    }
    match reading {
        Reading::Whole => {
            let file = visit.open(MAX_FILE_BYTES)?;
            let mode = file.stat().unix_mode;
            Ok(PackageFile::new(path, file.read_all()?, mode))
        }
        Reading::ForRules { profile, limit } => {
            read_for_rules(visit, path, validate::needs(visit.path, profile), limit)
        }
    }
}

/// Reads what the rules look at: a file they only size costs one `stat` relative to its folder;
/// any other an open, an fstat and the reads of its needed head (one `read` for most). A file
/// over `limit` is sized and not read: the rules report its size; SKILL.md and the config,
/// which the rules read whole, refuse the folder instead.
fn read_for_rules<F: Listing>(
    visit: &Visit<'_, F>,
    path: String,
    needs: Needs,
    limit: u64,
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
        return Ok(validation_only(path, Vec::new(), stat.size, stat.unix_mode));
    }
    let file = visit.open(MAX_FILE_BYTES)?;
    let (size, mode) = (file.stat().size, file.stat().unix_mode);
    if size > limit {
        if needs == Needs::All {
            return Err(FileError::TooLarge { path, size, limit }.into());
        }
        return Ok(validation_only(path, Vec::new(), size, mode));
    }
    let bytes = read_needed(file.file(), size as usize, needs).map_err(|e| FileError::io(&path, e))?;
    Ok(validation_only(path, bytes, size, mode))
}
