//! Inspection of an untrusted zip (SPEC A8), entirely in memory: nothing is written.
//!
//! Pass one reads only metadata — our own parse of the central directory and local headers —
//! and refuses bad names, entry types, encryption, declared sizes, overlaps, duplicates, case
//! collisions and layouts. Pass two decompresses the kept entries through the `zip` crate with
//! every read capped at the entry's declared size (itself within the limits), so a lying header
//! is caught after at most one byte too many, and hashes each file (SHA-256) as it streams.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Cursor, Read};

use sha2::{Digest, Sha256};
use zip::ZipArchive;

use crate::archive::central::{self, CentralDirectory, CentralEntry};
use crate::archive::{codes, layout, names, ArchiveError};
use crate::files;
use crate::finding::Finding;
use crate::package::{Package, PackageFile};
use crate::policy::{ImportLimits, Policy};

/// Declared-to-compressed ratio above which an entry over the size limit is called a bomb
/// rather than just a large file. Ordinary content stays well below it; deflate tops out near 1032.
const BOMB_RATIO: u64 = 100;
/// Compression methods we decompress: stored and deflate.
const METHOD_STORED: u16 = 0;
const METHOD_DEFLATE: u16 = 8;
/// Unix file-type bits.
const S_IFMT: u32 = 0o170_000;
const S_IFLNK: u32 = 0o120_000;
const S_IFDIR: u32 = 0o040_000;
const S_IFREG: u32 = 0o100_000;
/// MS-DOS attributes: directory, and reparse point (how Windows zips record links).
const DOS_DIRECTORY: u32 = 0x10;
const DOS_REPARSE_POINT: u32 = 0x400;
const READ_CHUNK: usize = 64 * 1024;

/// Largest archive file read at all: room for the total limit stored uncompressed, the same
/// again in dropped junk and headers, and a megabyte of slack.
pub fn max_archive_bytes(limits: &ImportLimits) -> u64 {
    limits.max_total_bytes.saturating_mul(2).saturating_add(1024 * 1024)
}

/// Most central directory entries read: files, folder entries and macOS `__MACOSX` twins.
fn max_entries(limits: &ImportLimits) -> usize {
    (limits.max_files as usize).saturating_mul(4).saturating_add(64)
}

/// Reads an archive from `reader` (at most [`max_archive_bytes`]) and inspects it.
pub fn inspect<R: Read>(reader: R, policy: &Policy) -> Result<Package, ArchiveError> {
    let cap = max_archive_bytes(&policy.limits);
    let mut bytes = Vec::new();
    reader.take(cap + 1).read_to_end(&mut bytes).map_err(|source| ArchiveError::Read { source })?;
    if bytes.len() as u64 > cap {
        return Err(ArchiveError::Refused { findings: vec![too_large(cap)] });
    }
    inspect_bytes(&bytes, policy).map_err(|findings| ArchiveError::Refused { findings })
}

/// The refusal of an archive file larger than `cap` bytes.
pub(crate) fn too_large(cap: u64) -> Finding {
    Finding::error(codes::ARCHIVE_TOO_LARGE, "", format!("the archive is larger than {cap} bytes"))
        .hint("remove large or generated files (node_modules, build output) before zipping")
}

/// Inspects the zip in `bytes` against `policy`: the package (files relative to the skill root,
/// sorted, junk dropped) or every refusal found. Pure, so it can be fuzzed.
pub fn inspect_bytes(bytes: &[u8], policy: &Policy) -> Result<Package, Vec<Finding>> {
    let dir = central::read(bytes, max_entries(&policy.limits))
        .map_err(|m| vec![Finding::error(m.code, "", m.message).hint(m.hint)])?;
    refuse_overlaps(&dir)?;
    let entries = classify(&dir, &policy.limits)?;
    check_set(&entries, &policy.limits)?;
    let kept: Vec<&Entry> = entries.iter().filter(|e| e.kept()).collect();
    let root =
        layout::detect(&kept.iter().map(|e| e.name.as_str()).collect::<Vec<_>>()).map_err(|f| vec![f])?;
    let files = read_files(bytes, &dir, &kept, root.as_deref())?;
    check_policy(&files, policy)?;
    let mut files: Vec<PackageFile> = files.into_iter().map(|(_, file)| file).collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(Package { folder_name: root, files })
}

/// One central directory entry after its name and type were accepted.
#[derive(Debug)]
struct Entry<'a> {
    raw: &'a CentralEntry,
    name: String,
    is_dir: bool,
    junk: bool,
}

impl Entry<'_> {
    /// A regular file that will be part of the package.
    fn kept(&self) -> bool {
        !self.is_dir && !self.junk
    }
}

fn entry_finding(code: &str, name: &str, message: impl Into<String>, hint: &str) -> Finding {
    Finding::error(code, name, message).hint(hint)
}

fn display_name(raw: &[u8]) -> String {
    String::from_utf8_lossy(raw).replace('\0', "\\0")
}

fn refuse_overlaps(dir: &CentralDirectory) -> Result<(), Vec<Finding>> {
    match central::first_overlap(&dir.entries) {
        None => Ok(()),
        Some((a, b)) => Err(vec![entry_finding(
            codes::OVERLAPPING_ENTRIES,
            &display_name(&b.name),
            format!(
                "the entry shares archive bytes with `{}` (an overlapping-entries zip bomb)",
                display_name(&a.name)
            ),
            "re-create the zip with a standard tool; each file must have its own data",
        )]),
    }
}

/// Pass one, per entry: name, type, encryption, method, header agreement and declared sizes.
fn classify<'a>(dir: &'a CentralDirectory, limits: &ImportLimits) -> Result<Vec<Entry<'a>>, Vec<Finding>> {
    let mut entries = Vec::with_capacity(dir.entries.len());
    let mut findings = Vec::new();
    for raw in &dir.entries {
        match classify_one(raw, limits) {
            Ok(entry) => entries.push(entry),
            Err(finding) => findings.push(finding),
        }
    }
    if findings.is_empty() {
        Ok(entries)
    } else {
        Err(findings)
    }
}

fn classify_one<'a>(raw: &'a CentralEntry, limits: &ImportLimits) -> Result<Entry<'a>, Finding> {
    let shown = display_name(&raw.name);
    let name = names::check(&raw.name).map_err(|r| entry_finding(r.code, &shown, r.message, r.hint))?;
    let mode = raw.unix_mode().unwrap_or(0);
    if mode & S_IFMT == S_IFLNK || raw.dos_attributes() & DOS_REPARSE_POINT != 0 {
        return Err(entry_finding(
            codes::SYMLINK,
            &shown,
            "the entry is a symbolic link",
            "replace the link with the file it points to",
        ));
    }
    let is_dir =
        shown.ends_with('/') || mode & S_IFMT == S_IFDIR || raw.dos_attributes() & DOS_DIRECTORY != 0;
    if !matches!(mode & S_IFMT, 0 | S_IFREG | S_IFDIR) {
        return Err(entry_finding(
            codes::SPECIAL_FILE,
            &shown,
            "the entry is a device, FIFO or socket",
            "zip only regular files",
        ));
    }
    if raw.is_encrypted() {
        return Err(entry_finding(
            codes::ENCRYPTED,
            &shown,
            "the entry is encrypted",
            "zip the package without a password",
        ));
    }
    if raw.local_name_differs {
        return Err(entry_finding(
            codes::HEADER_MISMATCH,
            &shown,
            "the entry's local header names a different file than the central directory",
            "re-create the zip with a standard tool",
        ));
    }
    if is_dir {
        if raw.uncompressed_size != 0 {
            return Err(entry_finding(
                codes::INVALID,
                &shown,
                "a folder entry carries data",
                "re-create the zip with a standard tool",
            ));
        }
        let junk = files::is_junk(&format!("{name}/"));
        return Ok(Entry { raw, name, is_dir, junk });
    }
    let junk = files::is_junk(&name);
    if !junk {
        check_method_and_size(raw, &shown, limits)?;
    }
    Ok(Entry { raw, name, is_dir, junk })
}

/// The method is checked in both headers: the `zip` crate decompresses by the central record,
/// a streaming extractor by the local header, so an unknown method in either is refused as such,
/// and two known ones that differ would let each tool see a different file.
fn check_method_and_size(raw: &CentralEntry, shown: &str, limits: &ImportLimits) -> Result<(), Finding> {
    if let Some(method) = [raw.method, raw.local_method].into_iter().find(|m| !is_read(*m)) {
        return Err(entry_finding(
            codes::UNSUPPORTED_COMPRESSION,
            shown,
            format!("the entry uses compression method {method}; only stored (0) and deflate (8) are read"),
            "zip with the default (deflate) compression",
        ));
    }
    if raw.method != raw.local_method {
        return Err(entry_finding(
            codes::HEADER_MISMATCH,
            shown,
            format!(
                "the local header says compression method {} and the central directory {}",
                raw.local_method, raw.method
            ),
            "re-create the zip with a standard tool",
        ));
    }
    let declared = raw.uncompressed_size;
    if declared > limits.max_file_bytes {
        let ratio = declared / raw.compressed_size.max(1);
        if ratio > BOMB_RATIO {
            return Err(entry_finding(
                codes::BOMB,
                shown,
                format!(
                    "the entry claims {declared} bytes from {} compressed bytes (ratio {ratio}:1): a zip bomb",
                    raw.compressed_size
                ),
                "this archive is built to exhaust memory or disk; do not import it",
            ));
        }
        return Err(entry_finding(
            codes::FILE_TOO_LARGE,
            shown,
            format!("the file is {declared} bytes; the limit is {} bytes per file", limits.max_file_bytes),
            "shrink or split the file, or raise the per-file import limit in Settings",
        ));
    }
    if raw.method == METHOD_STORED && raw.compressed_size != declared {
        return Err(entry_finding(
            codes::SIZE_MISMATCH,
            shown,
            format!("the stored entry declares {declared} bytes but occupies {}", raw.compressed_size),
            "re-create the zip with a standard tool",
        ));
    }
    Ok(())
}

/// True for the compression methods pass two decompresses.
fn is_read(method: u16) -> bool {
    matches!(method, METHOD_STORED | METHOD_DEFLATE)
}

/// Pass one, across entries: duplicates, case collisions, file/folder clashes, count, total.
fn check_set(entries: &[Entry], limits: &ImportLimits) -> Result<(), Vec<Finding>> {
    let mut findings = Vec::new();
    let mut exact: BTreeSet<&str> = BTreeSet::new();
    let mut folded: BTreeMap<String, &str> = BTreeMap::new();
    for entry in entries.iter().filter(|e| !e.junk) {
        let shown = display_name(&entry.raw.name);
        if !exact.insert(entry.name.as_str()) {
            findings.push(entry_finding(
                codes::DUPLICATE_NAME,
                &shown,
                "the archive holds two entries with this name",
                "keep one copy of the file and zip again",
            ));
        } else if let Some(other) = folded.insert(names::fold(&entry.name), &entry.name) {
            findings.push(entry_finding(
                codes::CASE_COLLISION,
                &shown,
                format!(
                    "the name differs from `{other}` only in letter case, accents' encoding or trailing dots and spaces"
                ),
                "rename one of the two files; on macOS or Windows they would be the same file",
            ));
        }
    }
    findings.extend(file_folder_conflicts(entries));
    let kept: Vec<&Entry> = entries.iter().filter(|e| e.kept()).collect();
    if kept.len() > limits.max_files as usize {
        findings.push(
            Finding::error(
                codes::TOO_MANY_FILES,
                "",
                format!("the archive holds {} files; the limit is {}", kept.len(), limits.max_files),
            )
            .hint("remove files the skill does not need, or raise the file limit in Settings"),
        );
    }
    let total: u64 = kept.iter().map(|e| e.raw.uncompressed_size).sum();
    if total > limits.max_total_bytes {
        findings.push(
            Finding::error(
                codes::TOTAL_TOO_LARGE,
                "",
                format!("the files add up to {total} bytes; the limit is {} bytes", limits.max_total_bytes),
            )
            .hint("remove large files, or raise the total import limit in Settings"),
        );
    }
    if findings.is_empty() {
        Ok(())
    } else {
        Err(findings)
    }
}

/// Folder-level clashes: a name used for a file and a folder, and one folder spelled two ways
/// (`References/a.md` beside `references/b.md` is one folder on macOS and Windows, two on Linux).
fn file_folder_conflicts(entries: &[Entry]) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut folders: BTreeMap<String, String> = BTreeMap::new();
    for entry in entries.iter().filter(|e| !e.junk) {
        let mut parts: Vec<&str> = entry.name.split('/').collect();
        if !entry.is_dir {
            parts.pop();
        }
        for depth in 1..=parts.len() {
            let exact = parts[..depth].join("/");
            let spelled = folders.entry(names::fold(&exact)).or_insert_with(|| exact.clone());
            if *spelled != exact {
                findings.push(entry_finding(
                    codes::CASE_COLLISION,
                    &display_name(&entry.raw.name),
                    format!("the folder `{exact}` is also spelled `{spelled}`"),
                    "use one spelling for the folder",
                ));
                break;
            }
        }
    }
    findings.extend(entries.iter().filter(|e| e.kept() && folders.contains_key(&names::fold(&e.name))).map(
        |e| {
            entry_finding(
                codes::FILE_FOLDER_CONFLICT,
                &display_name(&e.raw.name),
                "the name is used both for a file and for a folder",
                "rename the file or the folder",
            )
        },
    ));
    findings
}

/// Pass two: decompress each kept entry through the `zip` crate, capped at its declared size,
/// hashing as it streams. Returns each file with the entry name it came from.
fn read_files<'e>(
    bytes: &[u8],
    dir: &CentralDirectory,
    kept: &[&'e Entry],
    root: Option<&str>,
) -> Result<Vec<(&'e Entry<'e>, PackageFile)>, Vec<Finding>> {
    let invalid = |message: String| {
        vec![Finding::error(codes::INVALID, "", message).hint("re-create the zip with a standard tool")]
    };
    let mut archive = ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| invalid(format!("the zip reader refused the archive: {e}")))?;
    if archive.len() != dir.entries.len() {
        return Err(invalid(
            "the zip reader sees a different number of entries than the central directory lists".into(),
        ));
    }
    let mut out = Vec::with_capacity(kept.len());
    for entry in kept {
        let path = match root {
            Some(top) => {
                entry.name.strip_prefix(top).and_then(|p| p.strip_prefix('/')).unwrap_or(&entry.name)
            }
            None => &entry.name,
        };
        let (data, sha256) = read_one(&mut archive, entry).map_err(|f| vec![f])?;
        let unix_mode = entry.raw.unix_mode().map(|m| m & 0o7777);
        out.push((*entry, PackageFile::with_hash(path, data, unix_mode, sha256)));
    }
    Ok(out)
}

fn read_one(archive: &mut ZipArchive<Cursor<&[u8]>>, entry: &Entry) -> Result<(Vec<u8>, String), Finding> {
    let raw = entry.raw;
    let shown = display_name(&raw.name);
    let mismatch = |message: String| {
        entry_finding(codes::SIZE_MISMATCH, &shown, message, "re-create the zip with a standard tool")
    };
    let mut file = archive.by_index(raw.index).map_err(|e| {
        entry_finding(
            codes::INVALID,
            &shown,
            format!("the entry cannot be read: {e}"),
            "re-create the zip with a standard tool",
        )
    })?;
    if file.header_start() != raw.header_offset
        || file.size() != raw.uncompressed_size
        || file.compressed_size() != raw.compressed_size
    {
        return Err(entry_finding(
            codes::HEADER_MISMATCH,
            &shown,
            "the zip reader and the central directory disagree about this entry",
            "re-create the zip with a standard tool",
        ));
    }
    let declared = raw.uncompressed_size;
    let mut data = Vec::with_capacity(declared as usize);
    let mut hasher = Sha256::new();
    let mut chunk = vec![0u8; READ_CHUNK];
    let mut capped = (&mut file).take(declared + 1);
    loop {
        let n = capped.read(&mut chunk).map_err(|e| read_error(&shown, declared, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&chunk[..n]);
        data.extend_from_slice(&chunk[..n]);
    }
    let actual = data.len() as u64;
    if actual > declared {
        return Err(mismatch(format!(
            "the entry inflates past its declared {declared} bytes (a lying header)"
        )));
    }
    if actual < declared {
        return Err(mismatch(format!("the entry declares {declared} bytes but holds {actual}")));
    }
    Ok((data, format!("{:x}", hasher.finalize())))
}

/// Names the failure of a streaming read. The `zip` crate stops a stream that grows past its
/// declared size and checks the CRC-32 at its end; both surface as `InvalidData`.
fn read_error(shown: &str, declared: u64, err: std::io::Error) -> Finding {
    let text = err.to_string();
    let (code, message) = if text.contains("declared") {
        (
            codes::SIZE_MISMATCH,
            format!("the entry inflates past its declared {declared} bytes (a lying header)"),
        )
    } else if text.contains("checksum") {
        (codes::CRC_MISMATCH, "the entry's data does not match its CRC-32".to_string())
    } else {
        (codes::INVALID, format!("the entry's data cannot be decompressed: {text}"))
    };
    entry_finding(code, shown, message, "re-create the zip with a standard tool")
}

/// The workspace policy on contents: executable content and asset extensions.
fn check_policy(files: &[(&Entry, PackageFile)], policy: &Policy) -> Result<(), Vec<Finding>> {
    let mut findings = Vec::new();
    for (entry, file) in files {
        let shown = display_name(&entry.raw.name);
        let head = &file.bytes[..file.bytes.len().min(2)];
        if !policy.allow_executable && files::is_executable(&file.path, head, file.unix_mode) {
            findings.push(entry_finding(
                codes::EXECUTABLE_REFUSED,
                &shown,
                "the file is executable content (a script, an executable extension, a shebang or an exec bit) and the setting `allow_executable` is off",
                "remove the file, or turn on `allow_executable` in Settings to accept skills with scripts",
            ));
        } else if file.path.starts_with("assets/")
            && !policy.limits.asset_extensions.iter().any(|ext| *ext == files::extension(&file.path))
        {
            findings.push(entry_finding(
                codes::ASSET_EXTENSION_REFUSED,
                &shown,
                format!("assets may have the extensions {}", policy.limits.asset_extensions.join(", ")),
                "convert the file to an accepted format, or add its extension to the asset list in Settings",
            ));
        }
    }
    if findings.is_empty() {
        Ok(())
    } else {
        Err(findings)
    }
}
