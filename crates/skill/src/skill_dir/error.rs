//! Why a file or folder of a skill was not read. Each variant is a finding code of its own
//! (`docs/finding-codes.md`), so a link, a FIFO and a 2 GB file are told apart wherever the
//! refusal surfaces: a finding on the skill, a CLI message, a level-3 error.

use std::io;
use std::path::PathBuf;

use super::Kind;
use crate::finding::Finding;
use skillcase_common::error::Coded;

/// A refusal or failure of [`super::SkillDir`]. `path` is relative to the skill folder
/// (`references/a.md`), except for the folder itself, whose variants carry its own path.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The skill folder does not exist.
    #[error("path does not exist: {}", .0.display())]
    NotFound(PathBuf),
    /// The skill folder is a file.
    #[error("not a directory: {}", .0.display())]
    NotADirectory(PathBuf),
    /// The skill folder could not be opened.
    #[error("cannot read {}: {source}", path.display())]
    FolderIo { path: PathBuf, source: io::Error },
    /// A link at `path` (or on the way to it); `path` is empty for the skill folder itself.
    #[error("{} is a symbolic link; skills may hold only regular files and folders", shown(path))]
    Symlink { path: String },
    /// A FIFO, socket or device where a regular file was expected.
    #[error("{path} is {}, not a regular file; skills may hold only regular files and folders", kind.describe())]
    NotRegular { path: String, kind: Kind },
    /// Larger than the reader's limit: refused before it is read (or when it grew past it).
    #[error("{path} is {size} bytes, over the {limit}-byte limit for reading a skill file")]
    TooLarge { path: String, size: u64, limit: u64 },
    /// A path with an empty, `.` or `..` segment, absolute, or with `\`: never beneath the folder.
    #[error("`{path}` is not a plain path inside the skill folder")]
    NotBeneath { path: String },
    /// The file or a folder on the way to it could not be read (permissions, I/O, vanished).
    #[error("cannot read {path}: {source}")]
    Io { path: String, source: io::Error },
}

fn shown(path: &str) -> &str {
    if path.is_empty() {
        "the skill folder"
    } else {
        path
    }
}

impl Coded for FileError {
    fn code(&self) -> &'static str {
        match self {
            FileError::NotFound(_) => "path_not_found",
            FileError::NotADirectory(_) => "not_a_directory",
            FileError::FolderIo { .. } | FileError::Io { .. } => "io_error",
            FileError::Symlink { .. } => "symlink",
            FileError::NotRegular { .. } => "not_regular_file",
            FileError::TooLarge { .. } => "file_too_large",
            FileError::NotBeneath { .. } => "path_not_beneath",
        }
    }
}

impl FileError {
    /// An I/O failure on the file at `rel`.
    pub(crate) fn io(rel: &str, source: io::Error) -> FileError {
        FileError::Io { path: rel.to_string(), source }
    }

    /// The underlying I/O error, or one that describes the refusal.
    pub fn into_io(self) -> io::Error {
        match self {
            FileError::Io { source, .. } | FileError::FolderIo { source, .. } => source,
            other => io::Error::other(other.to_string()),
        }
    }

    /// True when the file (or a folder on the way to it) does not exist.
    pub fn is_not_found(&self) -> bool {
        match self {
            FileError::NotFound(_) => true,
            // A file where a folder of the path should be means there is nothing beneath it.
            FileError::Io { source, .. } | FileError::FolderIo { source, .. } => {
                matches!(source.kind(), io::ErrorKind::NotFound | io::ErrorKind::NotADirectory)
            }
            _ => false,
        }
    }

    /// The file the finding names: relative to the skill folder, empty for the folder itself.
    pub fn file(&self) -> &str {
        match self {
            FileError::Symlink { path }
            | FileError::NotRegular { path, .. }
            | FileError::TooLarge { path, .. }
            | FileError::NotBeneath { path }
            | FileError::Io { path, .. } => path,
            FileError::NotFound(_) | FileError::NotADirectory(_) | FileError::FolderIo { .. } => "",
        }
    }

    /// The refusal as an error finding on the skill, with a hint that says how to fix it.
    pub fn to_finding(&self) -> Finding {
        Finding::error(self.code(), self.file(), self.to_string()).hint(match self {
            FileError::NotFound(_) | FileError::NotADirectory(_) => "pass the path of a skill folder",
            FileError::Symlink { .. } => "replace the link with a copy of the file",
            FileError::NotRegular { .. } => "remove it; keep only ordinary files in a skill folder",
            FileError::TooLarge { .. } => "split the file or shrink it",
            _ => "make the folder readable and keep it to ordinary files",
        })
    }
}
