//! Skills from folders on disk: [`package_from_dir`] reads a folder into a [`Package`] (junk
//! dropped, bounded depth and count, Unix modes kept), [`load_dir`] validates it in one call, and
//! [`read_index_entry`] is the fast level-1 path that reads only SKILL.md's frontmatter and
//! `skill.config.yaml`, so listing thousands of skills costs little more than opening each file.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use crate::config::CONFIG_FILE;
use crate::finding::Finding;
use crate::package::{Package, PackageFile};
use crate::policy::Policy;
use crate::validate::{self, Needs, Profile, Scope, Validated};
use skillcase_common::error::Coded;

#[cfg(unix)]
mod at;
mod walk;

/// Deepest folder nesting read inside a skill.
pub const MAX_DEPTH: usize = 16;
/// Most files read from one skill folder (the policy's lower limit is reported as a finding).
pub const MAX_FILES: usize = 10_000;
/// Largest single file read into memory (the policy's lower limit is reported as a finding).
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Why a folder could not be read as a package at all.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("path does not exist: {0}")]
    NotFound(PathBuf),
    #[error("not a directory: {0}")]
    NotADirectory(PathBuf),
    #[error("cannot read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{0} is a symbolic link; skills may hold only regular files and folders")]
    Symlink(String),
    #[error("{0} is nested deeper than {MAX_DEPTH} folders")]
    TooDeep(String),
    #[error("the folder holds more than {MAX_FILES} files")]
    TooManyFiles,
    #[error("{path} is {bytes} bytes, over the {MAX_FILE_BYTES}-byte read limit")]
    FileTooLarge { path: String, bytes: u64 },
    #[error("{0} has a name that is not valid UTF-8")]
    NonUtf8Name(PathBuf),
}

impl Coded for LoadError {
    fn code(&self) -> &'static str {
        match self {
            LoadError::NotFound(_) => "path_not_found",
            LoadError::NotADirectory(_) => "not_a_directory",
            LoadError::Io { .. } => "io_error",
            LoadError::Symlink(_) => "symlink",
            LoadError::TooDeep(_) => "too_deep",
            LoadError::TooManyFiles => "too_many_files",
            LoadError::FileTooLarge { .. } => "file_too_large",
            LoadError::NonUtf8Name(_) => "non_utf8_name",
        }
    }
}

impl LoadError {
    /// The error as a finding, so a folder that cannot be read is reported like any other problem.
    pub fn to_finding(&self) -> Finding {
        let file = match self {
            LoadError::Symlink(p) | LoadError::TooDeep(p) | LoadError::FileTooLarge { path: p, .. } => {
                p.clone()
            }
            _ => String::new(),
        };
        Finding::error(self.code(), file, self.to_string()).hint(match self {
            LoadError::NotFound(_) | LoadError::NotADirectory(_) => "pass the path of a skill folder",
            LoadError::Symlink(_) => "replace the link with a copy of the file",
            _ => "make the folder readable and keep it to ordinary files",
        })
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> LoadError + '_ {
    move |source| LoadError::Io { path: path.to_path_buf(), source }
}

/// How a folder's files are read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Every byte, hashed: the package may be stored.
    Whole,
    /// Only what the rules of the profile look at ([`validate::needs`]), unhashed: the package is
    /// validated and dropped inside [`load_dir`], never stored or served.
    ForRules(Profile),
}

/// Reads a skill folder into a package: every regular file (junk skipped), sorted by path, each
/// with its sha256.
pub fn package_from_dir(dir: &Path) -> Result<Package, LoadError> {
    read_package(dir, Reading::Whole)
}

fn read_package(dir: &Path, reading: Reading) -> Result<Package, LoadError> {
    let mut files = Vec::new();
    match reading {
        #[cfg(unix)]
        Reading::ForRules(profile) => {
            walk::walk(at::HandleFolder::open_root(dir, profile)?, "", 0, &mut files)?
        }
        _ => {
            folder_exists(dir)?;
            walk::walk(walk::PathFolder::open(dir, reading)?, "", 0, &mut files)?;
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(Package { folder_name: folder_name(dir), files })
}

/// `NotFound` or `NotADirectory` before a walk starts, so a bad PATH gets its own code.
fn folder_exists(dir: &Path) -> Result<(), LoadError> {
    let meta = fs::metadata(dir).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => LoadError::NotFound(dir.to_path_buf()),
        _ => LoadError::Io { path: dir.to_path_buf(), source: e },
    })?;
    if !meta.is_dir() {
        return Err(LoadError::NotADirectory(dir.to_path_buf()));
    }
    Ok(())
}

fn within_limit(path: &str, len: u64) -> Result<(), LoadError> {
    if len > MAX_FILE_BYTES {
        return Err(LoadError::FileTooLarge { path: path.to_string(), bytes: len });
    }
    Ok(())
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

/// One `read` appended to `buf`, as much as its spare capacity holds, retried when a signal
/// interrupts it. On Unix the bytes land straight in the uninitialised spare capacity, so no
/// buffer is zeroed first (level 1 would otherwise clear 4 KB per folder).
#[cfg(unix)]
fn read_once(file: &fs::File, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    loop {
        match rustix::io::read(file, rustix::buffer::spare_capacity(buf)) {
            Err(rustix::io::Errno::INTR) => {}
            other => return other.map_err(Into::into),
        }
    }
}

#[cfg(not(unix))]
fn read_once(mut file: &fs::File, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    use std::io::Read;
    let start = buf.len();
    buf.resize(buf.capacity(), 0);
    let read = loop {
        match file.read(&mut buf[start..]) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            other => break other,
        }
    };
    buf.truncate(start + *read.as_ref().unwrap_or(&0));
    read
}

#[cfg(unix)]
fn unix_mode(meta: &fs::Metadata) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    Some(meta.permissions().mode() & 0o7777)
}

#[cfg(not(unix))]
fn unix_mode(_meta: &fs::Metadata) -> Option<u32> {
    None
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
pub fn load_dir(dir: &Path, profile: Profile, policy: &Policy) -> Validated {
    match read_package(dir, Reading::ForRules(profile)) {
        Ok(pkg) => with_dir(validate::validate_package(&pkg, profile, policy), dir),
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
/// the classification only (body, reference and file rules need [`load_dir`]).
///
/// Its cost is dominated by the file system: one open and read of SKILL.md, one lookup for
/// `skill.config.yaml` and one for `scripts/` (both usually absent), with one path buffer for
/// all three and no hashing (level 1 never stores content, so the files' `sha256` stays empty).
pub fn read_index_entry(dir: &Path, profile: Profile) -> Validated {
    let mut path = PathBuf::with_capacity(dir.as_os_str().len() + 24);
    let Some((name, head)) = ["SKILL.md", "skill.md"]
        .into_iter()
        .find_map(|n| fs::File::open(in_dir(&mut path, dir, n)).and_then(read_head).ok().map(|h| (n, h)))
    else {
        return Validated::failed(vec![missing_skill_md(dir)]);
    };
    let mut pkg = Package { folder_name: folder_name(dir), files: Vec::with_capacity(2) };
    pkg.files.push(unhashed(name, head));
    let config = in_dir(&mut path, dir, CONFIG_FILE);
    // A failed `stat` costs the kernel less than a failed `open` (which sets up a file first),
    // and nine folders in ten have no config.
    if fs::symlink_metadata(config).is_ok() {
        if let Ok(bytes) = fs::read(config) {
            pkg.files.push(unhashed(CONFIG_FILE, bytes));
        }
    }
    let scope = Scope::Index { has_scripts: in_dir(&mut path, dir, "scripts").is_dir() };
    static POLICY: LazyLock<Policy> = LazyLock::new(Policy::default);
    with_dir(validate::validate_scoped(&pkg, profile, &POLICY, scope), dir)
}

/// `dir/name`, written over `buf`: one buffer for every file a folder's level-1 read looks at,
/// rebuilt from `dir` each time because `pop` and `set_file_name` would parse the path's
/// components backwards.
fn in_dir<'b>(buf: &'b mut PathBuf, dir: &Path, name: &str) -> &'b Path {
    buf.as_mut_os_string().clear();
    buf.push(dir);
    buf.push(name);
    buf
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

/// Reads a file in 4 KB steps until the frontmatter's closing `---` line (or the end). The usual
/// short frontmatter costs one `read` into one 4 KB allocation, which is dropped once the folder
/// is validated.
fn read_head(file: fs::File) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(STEP);
    loop {
        let scanned = buf.len();
        buf.reserve(STEP);
        if read_once(&file, &mut buf)? == 0 {
            return Ok(buf);
        }
        if let Some(end) = frontmatter_end(&buf, scanned) {
            buf.truncate(end);
            return Ok(buf);
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
        let v = read_index_entry(&dir, Profile::Skillcase);
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
            let entry = read_index_entry(&dir, Profile::Skillcase);
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
        let v = read_index_entry(&dir, Profile::Skillcase);
        assert_eq!(v.skill.unwrap().skill_type, SkillType::ComputeToolkit);
        assert_eq!(v.findings[0].code, "agent_tool_required");
    }

    #[test]
    fn an_index_entry_reports_frontmatter_errors() {
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = tmp.path().join("demo");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("SKILL.md"), "---\nname: Demo\ndescription: d\n---\n").unwrap();
        let v = read_index_entry(&dir, Profile::Standard);
        assert!(!v.is_valid());
        let codes: Vec<&str> = v.findings.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(codes, ["name_uppercase", "name_mismatch"]);
    }

    #[test]
    fn an_index_entry_for_a_folder_without_skill_md_fails() {
        let tmp = tempfile::TempDir::new().unwrap();
        let v = read_index_entry(tmp.path(), Profile::Skillcase);
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
        let tmp = tempfile::TempDir::new().unwrap();
        let dir = demo_folder(&tmp);
        fs::create_dir_all(dir.join("references/deep")).unwrap();
        fs::write(dir.join("references/deep/long.md"), "line\n".repeat(900)).unwrap();
        fs::write(dir.join("skill.config.yaml"), "category: vendas\n").unwrap();
        fs::write(dir.join("run.sh"), "#!/bin/sh\n").unwrap();
        fs::write(dir.join(".DS_Store"), "junk").unwrap();
        for profile in [Profile::Standard, Profile::Skillcase] {
            let (mut portable, mut unix) = (Vec::new(), Vec::new());
            let by_path = walk::PathFolder::open(&dir, Reading::ForRules(profile)).unwrap();
            walk::walk(by_path, "", 0, &mut portable).unwrap();
            walk::walk(at::HandleFolder::open_root(&dir, profile).unwrap(), "", 0, &mut unix).unwrap();
            portable.sort_by(|a, b| a.path.cmp(&b.path));
            unix.sort_by(|a, b| a.path.cmp(&b.path));
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
