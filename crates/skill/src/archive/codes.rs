//! The stable code of every import refusal (SPEC A8). Each refusal has its own code so the UI,
//! the CLI and scripts can tell them apart; `docs/finding-codes.md` lists them with their meaning,
//! in the same table as the validator's codes.

/// A name has a `..` segment: it would land outside the skill folder.
pub const PATH_TRAVERSAL: &str = "zip_path_traversal";
/// A name starts with `/`.
pub const ABSOLUTE_PATH: &str = "zip_absolute_path";
/// A name starts with a Windows drive (`C:`).
pub const DRIVE_PATH: &str = "zip_drive_path";
/// A name contains `\`, which Windows tools treat as a separator.
pub const BACKSLASH_PATH: &str = "zip_backslash_path";
/// A name has an empty or `.` segment, a control character or a `:`.
pub const INVALID_NAME: &str = "zip_invalid_name";
/// A name is not valid UTF-8.
pub const NAME_NOT_UTF8: &str = "zip_name_not_utf8";
/// A name contains a NUL byte (C APIs would cut it short).
pub const NUL_IN_NAME: &str = "zip_nul_in_name";
/// A name is longer than 255 bytes.
pub const NAME_TOO_LONG: &str = "zip_name_too_long";
/// An entry is a symbolic link (or a Windows reparse point).
pub const SYMLINK: &str = "zip_symlink";
/// An entry is a device, FIFO or socket.
pub const SPECIAL_FILE: &str = "zip_special_file";
/// Two entries have the same name.
pub const DUPLICATE_NAME: &str = "zip_duplicate_name";
/// Two names differ only in letter case or Unicode normalisation.
pub const CASE_COLLISION: &str = "zip_case_collision";
/// A name is used both as a file and as a folder.
pub const FILE_FOLDER_CONFLICT: &str = "zip_file_folder_conflict";
/// More files than the workspace limit.
pub const TOO_MANY_FILES: &str = "zip_too_many_files";
/// One file is larger than the per-file limit.
pub const FILE_TOO_LARGE: &str = "zip_file_too_large";
/// The files add up to more than the total limit.
pub const TOTAL_TOO_LARGE: &str = "zip_total_too_large";
/// The archive file itself is larger than any acceptable package could be.
pub const ARCHIVE_TOO_LARGE: &str = "zip_archive_too_large";
/// An entry's data does not match its declared size (a lying header).
pub const SIZE_MISMATCH: &str = "zip_size_mismatch";
/// An entry's data does not match its CRC-32.
pub const CRC_MISMATCH: &str = "zip_crc_mismatch";
/// An entry declares a size over the limit at a compression ratio only a bomb reaches.
pub const BOMB: &str = "zip_bomb";
/// Two entries share bytes of the archive (the overlapping-entries bomb).
pub const OVERLAPPING_ENTRIES: &str = "zip_overlapping_entries";
/// The local header of an entry disagrees with its central directory record.
pub const HEADER_MISMATCH: &str = "zip_header_mismatch";
/// An entry is encrypted.
pub const ENCRYPTED: &str = "zip_encrypted";
/// An entry uses a compression method other than stored or deflate.
pub const UNSUPPORTED_COMPRESSION: &str = "zip_unsupported_compression";
/// No `SKILL.md` at the root or in the single top folder.
pub const NO_SKILL_MD: &str = "zip_no_skill_md";
/// More than one `SKILL.md` where a skill root could be.
pub const MULTIPLE_SKILL_MD: &str = "zip_multiple_skill_md";
/// Several top-level folders (or loose files beside the skill folder).
pub const MULTIPLE_TOP_FOLDERS: &str = "zip_multiple_top_folders";
/// Executable content while the setting `allow_executable` is off.
pub const EXECUTABLE_REFUSED: &str = "executable_content_refused";
/// A file under `assets/` whose extension is not on the accepted list.
pub const ASSET_EXTENSION_REFUSED: &str = "asset_extension_refused";
/// Not a zip archive, or a damaged one.
pub const INVALID: &str = "zip_invalid";
/// A package file could not be read at all (also [`super::ArchiveError::Read`]'s code).
pub const READ_FAILED: &str = "archive_read_failed";

/// Every code above, in the order of `docs/finding-codes.md`; a test pins the two together.
pub const ALL_CODES: &[&str] = &[
    READ_FAILED,
    INVALID,
    ARCHIVE_TOO_LARGE,
    TOO_MANY_FILES,
    OVERLAPPING_ENTRIES,
    NUL_IN_NAME,
    NAME_NOT_UTF8,
    NAME_TOO_LONG,
    ABSOLUTE_PATH,
    DRIVE_PATH,
    BACKSLASH_PATH,
    PATH_TRAVERSAL,
    INVALID_NAME,
    SYMLINK,
    SPECIAL_FILE,
    ENCRYPTED,
    HEADER_MISMATCH,
    UNSUPPORTED_COMPRESSION,
    BOMB,
    FILE_TOO_LARGE,
    SIZE_MISMATCH,
    TOTAL_TOO_LARGE,
    DUPLICATE_NAME,
    CASE_COLLISION,
    FILE_FOLDER_CONFLICT,
    NO_SKILL_MD,
    MULTIPLE_SKILL_MD,
    MULTIPLE_TOP_FOLDERS,
    CRC_MISMATCH,
    EXECUTABLE_REFUSED,
    ASSET_EXTENSION_REFUSED,
];
