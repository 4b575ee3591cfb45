//! The validate-only folder walk on Unix. Each folder is opened once and its entries are opened,
//! sized and descended into relative to that handle, so the kernel resolves one name per file
//! instead of the whole absolute path, and no path is built for a file that is read without error.
//! The rules (junk skipped, symbolic links refused, depth and count bounded, names UTF-8) are
//! those of the portable walk in the parent module.

use std::ffi::CStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fd::{AsFd, BorrowedFd, OwnedFd};
use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags};

use super::{child_path, read_needed, validation_only, within_limit, LoadError, MAX_DEPTH, MAX_FILES};
use crate::skill::files;
use crate::skill::package::PackageFile;
use crate::skill::validate::{self, Needs, Profile};

const READ: OFlags = OFlags::RDONLY.union(OFlags::CLOEXEC).union(OFlags::NOFOLLOW);

/// Opens the skill folder `dir` and walks it. The folder itself may be reached through a symbolic
/// link (as `fs::metadata` and `fs::read_dir` allow); nothing inside it may be one. Its open says
/// whether it exists and is a folder, so it costs no separate `stat`.
pub(super) fn walk_dir(dir: &Path, profile: Profile, out: &mut Vec<PackageFile>) -> Result<(), LoadError> {
    let root = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::DIRECTORY;
    let fd = rustix::fs::open(dir, root, Mode::empty()).map_err(|e| match e {
        rustix::io::Errno::NOENT => LoadError::NotFound(dir.to_path_buf()),
        rustix::io::Errno::NOTDIR => LoadError::NotADirectory(dir.to_path_buf()),
        other => io(dir)(other),
    })?;
    walk(fd, dir, "", 0, profile, out)
}

fn walk(
    fd: OwnedFd,
    abs: &Path,
    rel: &str,
    depth: usize,
    profile: Profile,
    out: &mut Vec<PackageFile>,
) -> Result<(), LoadError> {
    if depth > MAX_DEPTH {
        return Err(LoadError::TooDeep(rel.to_string()));
    }
    let mut entries = Dir::new(fd).map_err(io(abs))?;
    while let Some(entry) = entries.read() {
        let entry = entry.map_err(io(abs))?;
        let name = entry.file_name();
        if matches!(name.to_bytes(), b"." | b"..") {
            continue;
        }
        let dir = entries.fd().map_err(io(abs))?;
        let text = std::str::from_utf8(name.to_bytes())
            .map_err(|_| LoadError::NonUtf8Name(abs.join(std::ffi::OsStr::from_bytes(name.to_bytes()))))?;
        let path = child_path(rel, text.to_string());
        if files::is_junk(&path) {
            continue;
        }
        let kind = match entry.file_type() {
            FileType::Unknown => rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)
                .map(|st| FileType::from_raw_mode(st.st_mode))
                .map_err(io(&abs.join(text)))?,
            known => known,
        };
        match kind {
            FileType::Symlink => return Err(LoadError::Symlink(path)),
            FileType::Directory => {
                let sub = abs.join(text);
                let fd = rustix::fs::openat(dir, name, READ | OFlags::DIRECTORY, Mode::empty())
                    .map_err(io(&sub))?;
                walk(fd, &sub, &path, depth + 1, profile, out)?;
            }
            FileType::RegularFile => {
                out.push(read_file(dir, name, abs, path, profile)?);
                if out.len() > MAX_FILES {
                    return Err(LoadError::TooManyFiles);
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// What the rules read of one file: a `stat` alone when they only size it, else an open, an
/// fstat and the reads of the needed head.
fn read_file(
    dir: BorrowedFd<'_>,
    name: &CStr,
    abs: &Path,
    path: String,
    profile: Profile,
) -> Result<PackageFile, LoadError> {
    let shown = || abs.join(std::ffi::OsStr::from_bytes(name.to_bytes()));
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
