//! Reading a package file a person named (`skillcase import x.zip`, a file dropped on the
//! window, `skillcase validate x.zip`) without letting the file decide how long or how much:
//! it is opened through the readers' safe open for named files
//! ([`crate::skill_dir::open_named`]), so a FIFO or a link to `/dev/zero` named `x.zip` is
//! refused at once instead of holding the thread in `open` or reading forever, and a file over
//! [`max_archive_bytes`] is refused from its size, unread.

use std::path::Path;

use super::inspect::too_large;
use super::{max_archive_bytes, ArchiveError};
use crate::finding::Finding;
use crate::policy::ImportLimits;
use crate::skill_dir::{open_named, FileError};

/// The bytes of the package at `path`, at most [`max_archive_bytes`] of `limits`. A file that is
/// not a regular file (`not_regular_file`) or is too large (`zip_archive_too_large`) is
/// [`ArchiveError::Refused`]; one that cannot be opened or read is [`ArchiveError::Read`].
pub fn read_package(path: &Path, limits: &ImportLimits) -> Result<Vec<u8>, ArchiveError> {
    let cap = max_archive_bytes(limits);
    let shown = path.display().to_string();
    let refuse = |finding: Finding| ArchiveError::Refused { findings: vec![finding] };
    let opened = open_named(path, &shown, cap).and_then(|file| file.read_all());
    opened.map_err(|error| match error {
        FileError::TooLarge { .. } => refuse(too_large(cap)),
        FileError::NotRegular { .. } => refuse(error.to_finding()),
        other => ArchiveError::Read { source: other.into_io() },
    })
}
