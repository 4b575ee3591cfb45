#![cfg_attr(unix, allow(dead_code))]

//! The portable folder handle, by path with `std::fs`, for systems without `openat`: each entry
//! is checked with `symlink_metadata` before it is used, and new files are created with
//! `create_new`, so links are refused and never written through; unlike the Unix handle it cannot
//! stop a swap between the check and the use. On Unix it is compiled for tests only.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::super::portable::open_checked;
use super::super::{FileError, Kind, OpenFile};

#[derive(Debug)]
pub(super) struct Handle {
    abs: PathBuf,
}

impl Handle {
    pub(super) fn open_named(path: &Path) -> Result<Handle, FileError> {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => Ok(Handle { abs: path.to_path_buf() }),
            Ok(_) => Err(FileError::NotADirectory(path.to_path_buf())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Err(FileError::NotFound(path.to_path_buf())),
            Err(source) => Err(FileError::FolderIo { path: path.to_path_buf(), source }),
        }
    }

    pub(super) fn try_clone(&self) -> io::Result<Handle> {
        Ok(Handle { abs: self.abs.clone() })
    }

    pub(super) fn child(&self, name: &str) -> Result<Handle, FileError> {
        let path = self.abs.join(name);
        let meta = fs::symlink_metadata(&path).map_err(|e| FileError::io(name, e))?;
        match Kind::of_metadata(&meta) {
            Kind::Dir => Ok(Handle { abs: path }),
            Kind::Symlink => Err(FileError::Symlink { path: name.to_string() }),
            _ => Err(FileError::NotADirectory(PathBuf::from(name))),
        }
    }

    pub(super) fn make_dir(&self, name: &str, mode: u32) -> io::Result<()> {
        let mut builder = fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, mode);
        #[cfg(not(unix))]
        let _ = mode;
        builder.create(self.abs.join(name))
    }

    pub(super) fn create_file(&self, name: &str, _mode: u32) -> io::Result<fs::File> {
        fs::OpenOptions::new().write(true).create_new(true).open(self.abs.join(name))
    }

    pub(super) fn kind_of(&self, name: &str) -> Option<Kind> {
        fs::symlink_metadata(self.abs.join(name)).ok().map(|m| Kind::of_metadata(&m))
    }

    pub(super) fn open_file<'p>(&self, name: &'p str, limit: u64) -> Result<OpenFile<'p>, FileError> {
        if self.kind_of(name) == Some(Kind::Symlink) {
            return Err(FileError::Symlink { path: name.to_string() });
        }
        open_checked(&self.abs.join(name), name, limit)
    }

    pub(super) fn rename(&self, from: &str, into: &Handle, to: &str) -> io::Result<()> {
        fs::rename(self.abs.join(from), into.abs.join(to))
    }

    pub(super) fn exchange(&self, _a: &str, _with: &Handle, _b: &str) -> io::Result<()> {
        Err(io::Error::new(io::ErrorKind::Unsupported, "no atomic exchange"))
    }

    #[cfg(unix)]
    pub(super) fn symlink(&self, target: &str, name: &str) -> io::Result<()> {
        std::os::unix::fs::symlink(target, self.abs.join(name))
    }

    #[cfg(not(unix))]
    pub(super) fn symlink(&self, _target: &str, _name: &str) -> io::Result<()> {
        Err(io::Error::new(io::ErrorKind::Unsupported, "links are made on Unix only; copy instead"))
    }

    pub(super) fn read_link(&self, name: &str) -> io::Result<String> {
        let target = fs::read_link(self.abs.join(name))?;
        target
            .into_os_string()
            .into_string()
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "a link target that is not UTF-8"))
    }

    pub(super) fn remove_file(&self, name: &str) -> io::Result<()> {
        fs::remove_file(self.abs.join(name))
    }

    /// `remove_dir_all` removes a link itself, never what it points to.
    pub(super) fn remove_tree(&self, name: &str) -> io::Result<()> {
        match self.kind_of(name) {
            Some(Kind::Dir) => fs::remove_dir_all(self.abs.join(name)),
            _ => self.remove_file(name),
        }
    }

    pub(super) fn set_mode(&self, mode: u32) -> io::Result<()> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&self.abs, fs::Permissions::from_mode(mode))
        }
        #[cfg(not(unix))]
        {
            let _ = mode;
            Ok(())
        }
    }

    pub(super) fn sync(&self) -> io::Result<()> {
        skillcase_common::durable::sync_dir(&self.abs)
    }

    #[cfg(not(unix))]
    pub(super) fn skill_root(
        &self,
        name: &str,
        abs: PathBuf,
    ) -> Result<super::super::portable::Root, FileError> {
        let _ = name;
        super::super::portable::Root::open(&abs, super::super::Reach::Listed)
    }
}
