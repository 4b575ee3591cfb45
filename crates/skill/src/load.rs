//! Skills from folders on disk: [`package_from_dir`] reads a folder into a [`Package`] (junk
//! dropped, bounded depth and count, Unix modes kept), [`load_dir`] validates it in one call, and
//! [`read_index_entry`] is the fast level-1 path that reads only SKILL.md's frontmatter and
//! `skill.config.yaml`, so listing thousands of skills costs little more than opening each file.
//!
//! Every file is opened through [`crate::skill_dir`]: relative to the skill folder's handle,
//! never through a link, never blocking on a FIFO, sized by its own descriptor and read no
//! further than the reader's limit. The `_from` variants take a folder already opened (the
//! library opens listed folders so that the folder itself cannot be a link either).

use std::fs;
use std::path::{Path, PathBuf};

use crate::config::CONFIG_FILE;
use crate::finding::Finding;
use crate::package::{Package, PackageFile};
use crate::policy::Policy;
use crate::skill_dir::{read_once, FileError, OpenFile, Reach, SkillDir};
use crate::validate::{self, Needs, Profile, Scope, Validated};
use skillcase_common::error::Coded;

mod walk;

/// Deepest folder nesting read inside a skill.
pub const MAX_DEPTH: usize = 16;
/// Most files read from one skill folder (the policy's lower limit is reported as a finding).
pub const MAX_FILES: usize = 10_000;
/// Largest single file read into memory in any profile (the policy's lower limit applies to the
/// `skillcase` profile, see [`read_limit`]).
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;
/// Largest total size of a skill folder's files the loader takes in any profile (1 GiB): a folder
/// over it is refused (`package_too_large`). It is also the largest total a workspace policy may
/// allow an import, so every skill the library took in can be read back.
pub const MAX_TOTAL_BYTES: u64 = 1 << 30;

/// Why a folder could not be read as a package at all.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The folder, or a file in it, was refused or could not be opened (see [`FileError`]).
    #[error(transparent)]
    File(#[from] FileError),
    #[error("{0} is nested deeper than {MAX_DEPTH} folders")]
    TooDeep(String),
    #[error("the folder holds more than {MAX_FILES} files")]
    TooManyFiles,
    /// The files add up to more than the reader takes; refused from their sizes.
    #[error("the folder's files add up to {total} bytes or more; at most {limit} bytes are read")]
    TooLarge { total: u64, limit: u64 },
    #[error("{} has a name that is not valid UTF-8", .0.display())]
    NonUtf8Name(PathBuf),
}

impl Coded for LoadError {
    fn code(&self) -> &'static str {
        match self {
            LoadError::File(e) => e.code(),
            LoadError::TooDeep(_) => "too_deep",
            LoadError::TooManyFiles => "too_many_files",
            LoadError::TooLarge { .. } => "package_too_large",
            LoadError::NonUtf8Name(_) => "non_utf8_name",
        }
    }
}

impl LoadError {
    /// The error as a finding, so a folder that cannot be read is reported like any other problem.
    pub fn to_finding(&self) -> Finding {
        match self {
            LoadError::File(e) => e.to_finding(),
            LoadError::TooDeep(p) => Finding::error(self.code(), p.clone(), self.to_string())
                .hint("make the folder readable and keep it to ordinary files"),
            LoadError::TooLarge { .. } => Finding::error(self.code(), String::new(), self.to_string())
                .hint("remove or shrink large files; a skill holds what its agent reads"),
            _ => Finding::error(self.code(), String::new(), self.to_string())
                .hint("make the folder readable and keep it to ordinary files"),
        }
    }
}

/// How a folder's files are read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Every byte, hashed: the package may be stored.
    Whole,
    /// Only what the rules of the profile look at ([`validate::needs`]), unhashed: the package is
    /// validated and dropped inside [`load_dir`], never stored or served. A file over `limit`
    /// is sized but not read.
    ForRules { profile: Profile, limit: u64 },
}

/// The most bytes a reader takes from one file of a skill validated under `profile` and
/// `policy`: the workspace's per-file limit where the profile enforces it (`skillcase`), else
/// the loader's own [`MAX_FILE_BYTES`]. A file over it is a `file_too_large` finding, never read.
pub fn read_limit(profile: Profile, policy: &Policy) -> u64 {
    match profile {
        Profile::Skillcase => policy.limits.max_file_bytes.min(MAX_FILE_BYTES),
        Profile::Standard | Profile::Claude | Profile::ClaudeCode | Profile::Codex => MAX_FILE_BYTES,
    }
}

/// Reads a skill folder into a package: every regular file (junk skipped), sorted by path, each
/// with its sha256. The folder at `dir` may be reached through a link (a person named it). A
/// folder whose files add up to more than [`MAX_TOTAL_BYTES`] is refused before a byte is read.
pub fn package_from_dir(dir: &Path) -> Result<Package, LoadError> {
    package_from_dir_within(dir, MAX_TOTAL_BYTES)
}

/// [`package_from_dir`] for a reader with a lower total limit (export: Anthropic's 30 MB), which
/// refuses a larger folder from its files' sizes (`package_too_large`) instead of reading it
/// first. A limit over [`MAX_TOTAL_BYTES`] is that limit.
pub fn package_from_dir_within(dir: &Path, limit: u64) -> Result<Package, LoadError> {
    read_package(SkillDir::open(dir, Reach::Named)?, Reading::Whole, limit.min(MAX_TOTAL_BYTES))
}

/// [`package_from_dir`] for a folder already opened.
pub fn package_from(dir: SkillDir) -> Result<Package, LoadError> {
    read_package(dir, Reading::Whole, MAX_TOTAL_BYTES)
}

/// Reads the folder as `reading` says, never more than `limit` bytes in all. A whole read sizes
/// every file first (a walk of `stat` calls that opens nothing), so a folder over the limit costs
/// no reads; either way the sizes each open reports are added up as files are read, so one that
/// grew meanwhile cannot carry the total past the limit.
fn read_package(dir: SkillDir, reading: Reading, limit: u64) -> Result<Package, LoadError> {
    let folder_name = folder_name(dir.path());
    if reading == Reading::Whole {
        walk::check_total(&dir, limit)?;
    }
    let mut files = walk::read_files(dir, reading, limit)?;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(Package { folder_name, files })
}

/// A file of `len` bytes of which `bytes` were read (more if it grew meanwhile).
fn validation_only(path: String, bytes: Vec<u8>, len: u64, unix_mode: Option<u32>) -> PackageFile {
    let size = len.max(bytes.len() as u64);
    PackageFile::validation_only(path, bytes, size, unix_mode)
}

/// First block read of a file needed up to a line: most references fit in it.
const LINES_BLOCK: usize = 8 * 1024;
/// Smallest read after the first block.
const LINES_STEP: usize = 4 * 1024;

/// The part of a `len`-byte file that `needs` asks for (less if the file shrank meanwhile).
fn read_needed(file: &fs::File, len: usize, needs: Needs) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    match needs {
        Needs::All => fill(file, &mut bytes, len)?,
        Needs::Head(n) => fill(file, &mut bytes, n.min(len))?,
        Needs::Lines(n) => {
            let mut seen = 0;
            let mut want = LINES_BLOCK.min(len);
            while bytes.len() < len {
                let from = bytes.len();
                fill(file, &mut bytes, want)?;
                seen += memchr::memchr_iter(b'\n', &bytes[from..]).count();
                if seen >= n || bytes.len() < want {
                    break;
                }
                want = (want + next_lines_step(want, seen, n)).min(len);
            }
        }
    }
    Ok(bytes)
}

/// How many more bytes should hold the `n - seen` lines still needed, judged from the lines per
/// byte of the `read` bytes so far (a fifth more, and at least [`LINES_STEP`]), so a long reference
/// is read about as far as its line `n` and no further.
fn next_lines_step(read: usize, seen: usize, n: usize) -> usize {
    let estimate = (n - seen).saturating_mul(read) / seen.max(1);
    (estimate + estimate / 5).max(LINES_STEP)
}

/// Reads until `buf` holds `want` bytes or the file ends (one `read` per call for a file in the
/// page cache).
fn fill(file: &fs::File, buf: &mut Vec<u8>, want: usize) -> std::io::Result<()> {
    buf.reserve_exact(want.saturating_sub(buf.len()));
    while buf.len() < want {
        if read_once(file, buf)? == 0 {
            break;
        }
    }
    Ok(())
}

fn folder_name(dir: &Path) -> Option<String> {
    let named = dir.file_name().map(|n| n.to_string_lossy().into_owned());
    named.or_else(|| dir.canonicalize().ok()?.file_name().map(|n| n.to_string_lossy().into_owned()))
}

/// `std::path::absolute`, without its component-by-component rebuild when the path is already
/// absolute and in normal form (the usual case for a library folder).
fn absolute(dir: &Path) -> PathBuf {
    if is_normal_absolute(dir) {
        return dir.to_path_buf();
    }
    std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf())
}

/// True for a Unix path that `std::path::absolute` would return unchanged: starts with a single
/// `/`, has no empty or `.` component and no trailing `/`.
fn is_normal_absolute(dir: &Path) -> bool {
    let Some(text) = dir.to_str() else { return false };
    cfg!(unix)
        && text.len() > 1
        && text.starts_with('/')
        && !text.ends_with('/')
        && !text.ends_with("/.")
        && !text.contains("//")
        && !text.contains("/./")
}

/// Reads and validates a skill folder; a folder that cannot be read becomes a failed result.
/// The package is validated and dropped, so its files are not hashed, and of each file only what
/// the profile's rules look at is read (the sizes in the skill's manifest are the files' own).
/// The folder at `dir` may be reached through a link (a person named it).
pub fn load_dir(dir: &Path, profile: Profile, policy: &Policy) -> Validated {
    match SkillDir::open(dir, Reach::Named) {
        Ok(folder) => load_from(folder, profile, policy),
        Err(e) => Validated::failed(vec![e.to_finding()]),
    }
}

/// [`load_dir`] for a folder already opened.
pub fn load_from(dir: SkillDir, profile: Profile, policy: &Policy) -> Validated {
    let shown = dir.path().to_path_buf();
    let reading = Reading::ForRules { profile, limit: read_limit(profile, policy) };
    match read_package(dir, reading, MAX_TOTAL_BYTES) {
        Ok(pkg) => with_dir(validate::validate_package(&pkg, profile, policy), &shown),
        Err(e) => Validated::failed(vec![e.to_finding()]),
    }
}

fn with_dir(mut v: Validated, dir: &Path) -> Validated {
    if let Some(skill) = v.skill.as_mut() {
        skill.dir = absolute(dir);
    }
    v
}

/// The fast level-1 path: reads SKILL.md only up to the closing `---`, plus `skill.config.yaml`
/// when present, and checks whether `scripts/` exists — nothing else in the folder. The skill
/// comes back with an empty `body` and `files`; the findings cover the frontmatter, the config and
/// the classification only (body, reference and file rules need [`load_dir`]). A SKILL.md or
/// config over [`read_limit`], a link or a special file in their place, is a failed result with
/// that one finding, and nothing of it is read.
///
/// Its cost is dominated by the file system: one open of the folder (`O_PATH` on Linux), then
/// relative to it one open, `fstat` and read of SKILL.md, one `stat` for the (usually absent)
/// `skill.config.yaml` and one for `scripts/`, with no hashing (level 1 never stores
/// content, so the files' `sha256` stays empty).
pub fn read_index_entry(dir: &Path, profile: Profile, policy: &Policy) -> Validated {
    match SkillDir::open(dir, Reach::Named) {
        Ok(folder) => index_entry_from(&folder, profile, policy),
        Err(FileError::NotFound(_) | FileError::NotADirectory(_)) => {
            Validated::failed(vec![missing_skill_md(dir)])
        }
        Err(e) => Validated::failed(vec![e.to_finding()]),
    }
}

/// [`read_index_entry`] for a folder already opened.
pub fn index_entry_from(dir: &SkillDir, profile: Profile, policy: &Policy) -> Validated {
    let limit = read_limit(profile, policy);
    let mut found = None;
    for name in ["SKILL.md", "skill.md"] {
        match dir.open_file(name, limit).and_then(|file| read_head(file, limit)) {
            Ok(head) => {
                found = Some((name, head));
                break;
            }
            Err(e) if e.is_not_found() => continue,
            Err(e) => return Validated::failed(vec![e.to_finding()]),
        }
    }
    let Some((name, head)) = found else {
        return Validated::failed(vec![missing_skill_md(dir.path())]);
    };
    let mut pkg = Package { folder_name: folder_name(dir.path()), files: Vec::with_capacity(2) };
    pkg.files.push(unhashed(name, head));
    // A failed `stat` costs the kernel less than a failed `open` (which sets up a file first),
    // and nine folders in ten have no config. The `stat` only spares the open of a missing
    // file; whatever it says, the open and its own `fstat` decide what is read.
    if dir.kind_of(CONFIG_FILE).is_some() {
        match dir.read(CONFIG_FILE, limit) {
            Ok(bytes) => pkg.files.push(unhashed(CONFIG_FILE, bytes)),
            Err(e) if e.is_not_found() => {}
            Err(e) => return Validated::failed(vec![e.to_finding()]),
        }
    }
    let has_scripts = dir.kind_of("scripts") == Some(crate::skill_dir::Kind::Dir);
    with_dir(validate::validate_scoped(&pkg, profile, policy, Scope::Index { has_scripts }), dir.path())
}

/// A file for the level-1 package, which is validated and dropped: nothing is stored, so its
/// content hash is never needed and not computed.
fn unhashed(path: &str, bytes: Vec<u8>) -> PackageFile {
    let size = bytes.len() as u64;
    PackageFile::validation_only(path, bytes, size, None)
}

fn missing_skill_md(dir: &Path) -> Finding {
    let what = if dir.is_dir() { "the folder has no SKILL.md" } else { "not a skill folder" };
    Finding::error("skill_md_missing", "SKILL.md", format!("{}: {what}", dir.display()))
        .hint("add a SKILL.md with `---`, `name:`, `description:`, `---` and the instructions")
}

/// How much of SKILL.md each read asks for (the floor level 1 is measured against reads 4 KB).
const STEP: usize = 4096;

/// Reads a file in 4 KB steps until the frontmatter's closing `---` line (or the end), never
/// more than `limit` bytes even if the file grows while it is read. The usual short frontmatter
/// costs one `read` into one 4 KB allocation, which is dropped once the folder is validated.
fn read_head(file: OpenFile<'_>, limit: u64) -> Result<Vec<u8>, FileError> {
    let too_large = |size| FileError::TooLarge { path: file.rel().to_string(), size, limit };
    let mut buf = Vec::with_capacity(STEP);
    loop {
        let scanned = buf.len();
        buf.reserve(STEP);
        let read = read_once(file.file(), &mut buf).map_err(|e| FileError::io(file.rel(), e))?;
        if read == 0 {
            return Ok(buf);
        }
        if let Some(end) = frontmatter_end(&buf, scanned) {
            buf.truncate(end);
            return Ok(buf);
        }
        if buf.len() as u64 > limit {
            return Err(too_large(buf.len() as u64));
        }
    }
}

/// Byte offset just past the closing `---` line, looking at complete lines only. `from` is where
/// new bytes start (earlier complete lines were already scanned; the last partial one is rescanned).
fn frontmatter_end(buf: &[u8], from: usize) -> Option<usize> {
    let first_nl = memchr::memchr(b'\n', buf)?;
    let start = memchr::memrchr(b'\n', &buf[..from]).map_or(first_nl + 1, |i| (i + 1).max(first_nl + 1));
    let mut line_start = start;
    for i in memchr::memchr_iter(b'\n', &buf[start..]).map(|i| start + i) {
        let line = &buf[line_start..i];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.trim_ascii_end() == b"---" {
            return Some(i + 1);
        }
        line_start = i + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SkillType;

    const SKILL_MD: &str =
        "---\nname: demo\ndescription: Answers questions\n---\n# Demo\n\nSee [a](references/a.md).\n";

    fn demo_folder(tmp: &tempfile::TempDir) -> PathBuf {
        let dir = tmp.path().join("demo");
        fs::create_dir_all(dir.join("references")).unwrap();
        fs::write(dir.join("SKILL.md"), SKILL_MD).unwrap();
        fs::write(dir.join("references/a.md"), "# A").unwrap();
        dir
    }

    #[test]
    fn a_folder_becomes_a_sorted_package_without_junk() {
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = demo_folder(&tmp);
        fs::write(dir.join(".DS_Store"), "junk").unwrap();
        fs::create_dir_all(dir.join("__pycache__")).unwrap();
        fs::write(dir.join("__pycache__/x.pyc"), "junk").unwrap();
        let pkg = package_from_dir(&dir).unwrap();
        let paths: Vec<&str> = pkg.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["SKILL.md", "references/a.md"]);
        assert_eq!(pkg.folder_name.as_deref(), Some("demo"));
    }

    #[cfg(unix)]
    #[test]
    fn unix_modes_are_kept_so_exec_bits_are_seen() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = demo_folder(&tmp);
        fs::set_permissions(dir.join("references/a.md"), fs::Permissions::from_mode(0o755)).unwrap();
        let pkg = package_from_dir(&dir).unwrap();
        assert_eq!(pkg.file("references/a.md").unwrap().unix_mode, Some(0o755));
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_refused() {
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = demo_folder(&tmp);
        std::os::unix::fs::symlink("/etc/hostname", dir.join("references/host.md")).unwrap();
        let err = package_from_dir(&dir).unwrap_err();
        assert_eq!(err.code(), "symlink");
        assert_eq!(err.to_finding().file, "references/host.md");
    }

    /// A FIFO would refuse the folder the moment a reading walk met it: the folder is refused for
    /// its size instead, so the sizing walk opened nothing and read nothing.
    #[cfg(unix)]
    #[test]
    fn a_folder_over_the_total_limit_is_refused_from_its_sizes_before_a_file_is_opened() {
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = demo_folder(&tmp);
        let fifo = dir.join("references/pipe.md");
        rustix::fs::mknodat(rustix::fs::CWD, &fifo, rustix::fs::FileType::Fifo, 0o644.into(), 0).unwrap();
        fs::create_dir(dir.join("assets")).unwrap();
        fs::File::create(dir.join("assets/big.bin")).unwrap().set_len(2 << 20).unwrap();
        let err = package_from_dir_within(&dir, 1 << 20).unwrap_err();
        assert_eq!(err.code(), "package_too_large");
        assert!(matches!(err, LoadError::TooLarge { limit, .. } if limit == 1 << 20), "{err}");
        assert_eq!(package_from_dir(&dir).unwrap_err().code(), "not_regular_file");
    }

    #[test]
    fn files_add_up_to_the_limit_and_no_further() {
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = demo_folder(&tmp);
        let total = (SKILL_MD.len() + "# A".len()) as u64;
        assert_eq!(package_from_dir_within(&dir, total).unwrap().total_bytes(), total);
        assert_eq!(package_from_dir_within(&dir, total - 1).unwrap_err().code(), "package_too_large");
    }

    #[test]
    fn validation_counts_the_sizes_of_files_it_does_not_read_towards_the_limit() {
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = demo_folder(&tmp);
        fs::create_dir(dir.join("assets")).unwrap();
        for i in 0..17 {
            let file = fs::File::create(dir.join(format!("assets/part-{i}.bin"))).unwrap();
            file.set_len(MAX_FILE_BYTES).unwrap();
        }
        let v = load_dir(&dir, Profile::Standard, &Policy::default());
        let codes: Vec<&str> = v.findings.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(codes, ["package_too_large"]);
    }

    #[test]
    fn load_dir_sets_the_absolute_folder() {
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = demo_folder(&tmp);
        let v = load_dir(&dir, Profile::Skillcase, &Policy::default());
        assert!(v.findings.is_empty(), "{:?}", v.findings);
        let skill = v.skill.unwrap();
        assert!(skill.dir.is_absolute());
        assert_eq!(skill.dir, dir);
        assert_eq!(skill.files.len(), 2);
    }

    #[test]
    fn an_index_entry_reads_the_frontmatter_and_config_only() {
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = demo_folder(&tmp);
        fs::write(dir.join("skill.config.yaml"), "category: vendas\n").unwrap();
        let v = read_index_entry(&dir, Profile::Skillcase, &Policy::default());
        assert!(v.is_valid(), "{:?}", v.findings);
        let skill = v.skill.unwrap();
        assert_eq!((skill.name.as_str(), skill.description.as_str()), ("demo", "Answers questions"));
        assert_eq!(skill.config.category.as_deref(), Some("vendas"));
        assert!(skill.body.is_empty() && skill.files.is_empty());
        assert_eq!(skill.dir, std::path::absolute(&dir).unwrap());
    }

    /// A SKILL.md whose closing `---` line starts at byte `at` (metadata entries fill the gap).
    fn frontmatter_closing_at(at: usize) -> String {
        let mut text = String::from("---\nname: demo\ndescription: Answers questions\nmetadata:\n");
        let mut i = 0;
        while at - text.len() > 40 {
            text.push_str(&format!("  k{i}: v\n"));
            i += 1;
        }
        let filler = at - text.len() - "  last: \n".len();
        text.push_str(&format!("  last: {}\n", "v".repeat(filler)));
        assert_eq!(text.len(), at);
        text + "---\n# Body\n"
    }

    #[test]
    fn an_index_entry_finds_a_closing_line_that_straddles_the_first_read_or_lies_beyond_it() {
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = tmp.path().join("demo");
        fs::create_dir_all(&dir).unwrap();
        for at in [STEP - 2, 2 * STEP + 100] {
            fs::write(dir.join("SKILL.md"), frontmatter_closing_at(at)).unwrap();
            let entry = read_index_entry(&dir, Profile::Skillcase, &Policy::default());
            let whole = load_dir(&dir, Profile::Skillcase, &Policy::default());
            assert!(entry.is_valid(), "closing line at {at}: {:?}", entry.findings);
            assert_eq!(entry.skill.unwrap().metadata, whole.skill.unwrap().metadata, "closing line at {at}");
        }
    }

    #[test]
    fn an_index_entry_sees_scripts_without_walking_them() {
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = demo_folder(&tmp);
        fs::create_dir_all(dir.join("scripts")).unwrap();
        let v = read_index_entry(&dir, Profile::Skillcase, &Policy::default());
        assert_eq!(v.skill.unwrap().skill_type, SkillType::ComputeToolkit);
        assert_eq!(v.findings[0].code, "agent_tool_required");
    }

    #[test]
    fn an_index_entry_reports_frontmatter_errors() {
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = tmp.path().join("demo");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("SKILL.md"), "---\nname: Demo\ndescription: d\n---\n").unwrap();
        let v = read_index_entry(&dir, Profile::Standard, &Policy::default());
        assert!(!v.is_valid());
        let codes: Vec<&str> = v.findings.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(codes, ["name_uppercase", "name_mismatch"]);
    }

    #[test]
    fn an_index_entry_for_a_folder_without_skill_md_fails() {
        let tmp = tempfile::TempDir::new().unwrap();
        let v = read_index_entry(tmp.path(), Profile::Skillcase, &Policy::default());
        assert_eq!(v.findings[0].code, "skill_md_missing");
        assert!(v.skill.is_none());
    }

    #[test]
    fn a_validated_folder_keeps_whole_sizes_of_files_read_in_part() {
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = demo_folder(&tmp);
        fs::create_dir_all(dir.join("assets")).unwrap();
        fs::write(dir.join("assets/data.bin"), vec![7u8; 100_000]).unwrap();
        fs::write(dir.join("references/long.md"), "a line of a long reference\n".repeat(2000)).unwrap();
        let v = load_dir(&dir, Profile::Standard, &Policy::default());
        let sizes: Vec<(&str, u64)> =
            v.skill.as_ref().unwrap().files.iter().map(|f| (f.path.as_str(), f.size)).collect();
        assert_eq!(
            sizes,
            [
                ("SKILL.md", SKILL_MD.len() as u64),
                ("assets/data.bin", 100_000),
                ("references/a.md", 3),
                ("references/long.md", 54_000)
            ]
        );
        let codes: Vec<&str> = v.findings.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(codes, ["reference_without_toc"]);
    }

    #[test]
    fn a_reference_is_read_only_up_to_the_lines_the_rules_need() {
        let tmp = tempfile::TempDir::new().unwrap();
        let path = tmp.path().join("long.md");
        fs::write(&path, "twenty bytes a line\n".repeat(5000)).unwrap();
        let file = fs::File::open(&path).unwrap();
        let head = read_needed(&file, 100_000, Needs::Lines(301)).unwrap();
        assert_eq!(head.len(), LINES_BLOCK);
        assert!(head.iter().filter(|&&b| b == b'\n').count() >= 301);
    }

    #[test]
    fn a_reference_with_long_lines_is_read_in_steps_sized_by_its_lines() {
        let tmp = tempfile::TempDir::new().unwrap();
        let path = tmp.path().join("wide.md");
        let line = format!("{}\n", "w".repeat(99));
        fs::write(&path, line.repeat(1000)).unwrap();
        let file = fs::File::open(&path).unwrap();
        let head = read_needed(&file, 100_000, Needs::Lines(301)).unwrap();
        let lines = head.iter().filter(|&&b| b == b'\n').count();
        assert!((301..=380).contains(&lines), "{lines} lines read");
    }

    #[test]
    fn a_short_reference_and_a_whole_file_are_read_completely() {
        let tmp = tempfile::TempDir::new().unwrap();
        let path = tmp.path().join("short.md");
        let text = "x\n".repeat(300).repeat(20);
        fs::write(&path, &text).unwrap();
        let read = |needs| read_needed(&fs::File::open(&path).unwrap(), text.len(), needs).unwrap();
        assert_eq!(read(Needs::All), text.as_bytes());
        assert_eq!(read(Needs::Lines(6001)), text.as_bytes());
        assert_eq!(read(Needs::Head(2)), b"x\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_shebang_is_still_seen_when_only_heads_are_read() {
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = demo_folder(&tmp);
        fs::create_dir_all(dir.join("tools")).unwrap();
        fs::write(dir.join("tools/run"), "#!/bin/sh\necho hi\n").unwrap();
        let v = load_dir(&dir, Profile::Skillcase, &Policy::default());
        let codes: Vec<&str> = v.findings.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(codes, ["executable_content"]);
        assert_eq!(v.findings[0].file, "tools/run");
    }

    #[cfg(unix)]
    #[test]
    fn the_unix_walk_reads_what_the_portable_walk_reads() {
        use crate::skill_dir::walk::Listing;
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = demo_folder(&tmp);
        fs::create_dir_all(dir.join("references/deep")).unwrap();
        fs::write(dir.join("references/deep/long.md"), "line\n".repeat(900)).unwrap();
        fs::write(dir.join("skill.config.yaml"), "category: vendas\n").unwrap();
        fs::write(dir.join("run.sh"), "#!/bin/sh\n").unwrap();
        fs::write(dir.join(".DS_Store"), "junk").unwrap();
        fn read<F: Listing>(root: F, reading: Reading) -> Vec<PackageFile> {
            let mut files = walk::read_files_with(root, reading).unwrap();
            files.sort_by(|a, b| a.path.cmp(&b.path));
            files
        }
        let mut readings = vec![Reading::Whole];
        for profile in [Profile::Standard, Profile::Skillcase] {
            readings.push(Reading::ForRules { profile, limit: read_limit(profile, &Policy::default()) });
        }
        for reading in readings {
            let portable = read(crate::skill_dir::portable_folder(&dir), reading);
            let unix = read(SkillDir::open(&dir, Reach::Named).unwrap().into_folder().unwrap(), reading);
            assert_eq!(portable, unix);
            assert_eq!(unix.len(), 5);
        }
    }

    #[cfg(unix)]
    #[test]
    fn the_unix_walk_refuses_a_symlink() {
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = demo_folder(&tmp);
        std::os::unix::fs::symlink("/etc/hostname", dir.join("references/host.md")).unwrap();
        let v = load_dir(&dir, Profile::Standard, &Policy::default());
        assert_eq!(v.findings[0].code, "symlink");
        assert_eq!(v.findings[0].file, "references/host.md");
    }

    #[cfg(unix)]
    #[test]
    fn a_skill_folder_reached_through_a_symlink_is_validated() {
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = demo_folder(&tmp);
        let link = tmp.path().join("linked");
        std::os::unix::fs::symlink(&dir, &link).unwrap();
        let v = load_dir(&link, Profile::Standard, &Policy::default());
        let codes: Vec<&str> = v.findings.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(codes, ["name_mismatch"]);
        assert_eq!(v.skill.unwrap().files.len(), 2);
    }

    #[test]
    fn a_missing_folder_and_a_file_get_their_own_codes() {
        let tmp = tempfile::TempDir::new().unwrap();
        let file = tmp.path().join("SKILL.md");
        fs::write(&file, SKILL_MD).unwrap();
        for profile in [Profile::Standard, Profile::Skillcase] {
            let missing = load_dir(&tmp.path().join("nope"), profile, &Policy::default());
            assert_eq!(missing.findings[0].code, "path_not_found");
            assert_eq!(load_dir(&file, profile, &Policy::default()).findings[0].code, "not_a_directory");
        }
        assert_eq!(package_from_dir(&tmp.path().join("nope")).unwrap_err().code(), "path_not_found");
        assert_eq!(package_from_dir(&file).unwrap_err().code(), "not_a_directory");
    }

    #[test]
    fn the_head_stops_after_the_closing_delimiter() {
        let text = b"---\nname: a\ndescription: b\n---\n# Body\n";
        assert_eq!(frontmatter_end(text, 0), Some(31));
        assert_eq!(frontmatter_end(b"---\nname: a\n", 0), None);
        assert_eq!(frontmatter_end(b"---\r\nname: a\r\n--- \r\nbody", 0), Some(20));
    }

    #[test]
    fn the_head_scan_resumes_on_the_last_partial_line() {
        let text = b"---\nname: a\n---\nbody";
        assert_eq!(frontmatter_end(text, 13), Some(16));
    }
}
