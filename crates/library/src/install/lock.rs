//! `skillcase.lock`: what Skillcase installed into one agent's skills folder, so a later sync or
//! verify knows which folders are its own (and leaves every other one alone) and what each file
//! should hold. Pretty JSON, keys sorted (skills by name, files by path), so it diffs well in a
//! repository; replaced whole through a temporary file and a rename, never half written. It is
//! read and written through the target folder's handle, and every entry is checked when it is
//! read, because a lock may come from anyone who can commit to a project.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use skillcase_skill::skill_dir::{FileError, OpenDir};
use skillcase_skill::validate::is_skill_name;
use ts_rs::TS;

use super::error::InstallError;

/// The lock's file name inside a target folder.
pub const LOCK_FILE: &str = "skillcase.lock";
/// The layout this build writes and reads; a lock with a higher number is refused, not guessed at.
pub const LOCK_VERSION: u32 = 1;
/// A lock larger than this is not one Skillcase wrote.
const MAX_LOCK_BYTES: u64 = 16 * 1024 * 1024;

/// Every skill Skillcase installed into one folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lock {
    /// [`LOCK_VERSION`] of the build that wrote it.
    pub lock_version: u32,
    /// By skill name, which is also the installed folder's name.
    pub skills: BTreeMap<String, LockedSkill>,
}

impl Default for Lock {
    fn default() -> Self {
        Lock { lock_version: LOCK_VERSION, skills: BTreeMap::new() }
    }
}

/// One installed skill as it was copied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockedSkill {
    /// The library's version id of what was copied; `null` for a skill copied from a folder.
    pub version: Option<i64>,
    /// Where it was copied from, so sync can copy it again.
    pub source: SkillSource,
    /// When it was last copied from its source (RFC 3339 UTC).
    pub installed_at: String,
    /// SHA-256 (lowercase hex) of every file, by path relative to the skill folder.
    pub files: BTreeMap<String, String>,
    /// Set for a linked install (`--link`): where the link of this name points, the canonical
    /// copy in the shared `.agents/skills` — relative in a project (`../../.agents/skills/frete`,
    /// so the project can be moved or cloned), absolute at user level. `files` are the canonical
    /// copy's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// Where an installed skill came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export)]
pub enum SkillSource {
    /// The live folder of a library skill, in the library of the data directory `data_dir`.
    Library { name: String, data_dir: String },
    /// A skill folder named by its absolute path.
    Folder { path: String },
    /// A skill folder of a git repository at a pinned commit: `path` inside the repository
    /// (`""` for its root); `reference` is the branch or tag followed, `None` for the default
    /// branch or a commit asked for by itself. The pin moves only on `skillcase update`.
    Git { url: String, reference: Option<String>, commit: String, path: String },
}

impl SkillSource {
    /// This source with a relative folder path resolved against `lock_dir`, the folder that holds
    /// the lock (a lock committed with a project may name its sources relative to itself, so the
    /// same lock works in every clone); never against the folder a command happens to run in.
    pub fn located_in(&self, lock_dir: &Path) -> SkillSource {
        match self {
            SkillSource::Folder { path } if Path::new(path).is_relative() => {
                SkillSource::Folder { path: lock_dir.join(path).display().to_string() }
            }
            other => other.clone(),
        }
    }
}

/// The lock file of the target folder `dir`.
pub fn lock_path(dir: &Path) -> PathBuf {
    dir.join(LOCK_FILE)
}

/// The lock of the held target folder `dir`, or `None` when it has none (nothing installed there
/// yet). It is opened once, relative to the folder, without following a link and without waiting
/// (a FIFO swapped in is refused at once), checked to be a regular file of at most 16 MiB on the
/// opened descriptor, and read from that descriptor. Every entry is then checked
/// ([`check_entries`]): a lock is text from outside (committed, edited), and its skill names
/// become folder names that sync replaces.
pub fn read(dir: &OpenDir) -> Result<Option<Lock>, InstallError> {
    let path = lock_path(dir.path()).display().to_string();
    let corrupt = |reason: String| InstallError::LockCorrupt { path: path.clone(), reason };
    let bytes = match dir.read_file(LOCK_FILE, MAX_LOCK_BYTES) {
        Ok(None) => return Ok(None),
        Ok(Some(bytes)) => bytes,
        Err(FileError::NotRegular { kind, .. }) => {
            return Err(corrupt(format!("it is {}, not a regular file", kind.describe())))
        }
        Err(FileError::Symlink { .. }) => {
            return Err(corrupt("it is a symbolic link, not a regular file".into()))
        }
        Err(FileError::TooLarge { .. }) => return Err(corrupt("larger than 16 MiB".into())),
        Err(other) => return Err(corrupt(other.to_string())),
    };
    let lock: Lock = serde_json::from_slice(&bytes).map_err(|e| corrupt(e.to_string()))?;
    if lock.lock_version > LOCK_VERSION {
        return Err(corrupt(format!(
            "written by a newer Skillcase (lock_version {}, this build reads {LOCK_VERSION})",
            lock.lock_version
        )));
    }
    check_entries(&lock).map_err(|(skill, reason)| InstallError::LockEntry {
        path: path.clone(),
        skill,
        reason,
    })?;
    Ok(Some(lock))
}

/// Refuses a lock entry Skillcase would never write, naming it: a key that is not a skill name
/// (`../victim`, `/home/ana/.ssh`, `skillcase.lock`, `.`), a library source whose name is not one,
/// a folder source that is empty or holds NUL, a file path that is not plain relative segments,
/// a digest that is not 64 lowercase hex digits.
pub fn check_entries(lock: &Lock) -> Result<(), (String, String)> {
    for (name, skill) in &lock.skills {
        let refuse = |reason: String| Err((name.clone(), reason));
        if !is_skill_name(name) {
            return refuse(format!(
                "{name:?} is not a skill name (1 to 64 lowercase letters, digits and single hyphens), \
                 and an installed skill's folder is named by it"
            ));
        }
        match &skill.source {
            SkillSource::Library { name: source, .. } if !is_skill_name(source) => {
                return refuse(format!("its library source {source:?} is not a skill name"));
            }
            SkillSource::Folder { path } if path.is_empty() || path.contains('\0') => {
                return refuse(format!("its folder source {path:?} is not a path"));
            }
            SkillSource::Git { url, commit, path, reference } => {
                let hex = commit.len() == 40
                    && commit.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
                if url.is_empty() || url.starts_with('-') || url.contains('\0') || !hex {
                    return refuse(format!(
                        "its git source {url:?} at {commit:?} is not a repository and commit"
                    ));
                }
                if !(path.is_empty() || is_plain_relative(path))
                    || reference.as_deref().is_some_and(|r| r.starts_with('-'))
                {
                    return refuse(format!(
                        "its git source's folder {path:?} is not a plain path inside the repository"
                    ));
                }
            }
            _ => {}
        }
        if let Some(link) = &skill.link {
            if !is_canonical_link(link, name) {
                return refuse(format!(
                    "its link {link:?} does not lead to the shared folder's copy (`../…/.agents/skills/{name}`)"
                ));
            }
        }
        for (file, digest) in &skill.files {
            if !is_plain_relative(file) {
                return refuse(format!("its file {file:?} is not a plain path inside the skill folder"));
            }
            if digest.len() != 64 || !digest.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
            {
                return refuse(format!("the digest of {file:?} is not a SHA-256 in lowercase hex"));
            }
        }
    }
    Ok(())
}

/// Whether `link` leads to the canonical copy of `name` and nowhere else: `../` one or more times
/// then `.agents/skills/NAME`, or an absolute path of plain segments ending so.
pub fn is_canonical_link(link: &str, name: &str) -> bool {
    let tail = format!(".agents/skills/{name}");
    let Some(head) = link.strip_suffix(&tail) else { return false };
    if link.chars().any(|c| c == '\\' || c.is_control()) {
        return false;
    }
    let relative = !head.is_empty() && head.split_terminator('/').all(|s| s == "..");
    let absolute = head.starts_with('/') && (head == "/" || is_plain_relative(head.trim_matches('/')));
    relative || absolute
}

/// `/`-separated segments, none empty, `.` or `..`, without `\\` or any control character.
fn is_plain_relative(path: &str) -> bool {
    !path.is_empty()
        && !path.chars().any(|c| c == '\\' || c.is_control())
        && path.split('/').all(|s| !s.is_empty() && s != "." && s != "..")
}

/// The lock as written: pretty JSON with a final newline.
pub fn to_text(lock: &Lock) -> String {
    let mut text = serde_json::to_string_pretty(lock).expect("a lock serialises");
    text.push('\n');
    text
}

/// Replaces the lock of the held folder `dir` whole: a new temporary file beside it (created
/// relative to the folder, never through a link), fsynced, renamed over it.
pub fn write(dir: &OpenDir, lock: &Lock) -> Result<(), InstallError> {
    let (temporary, mut file) = dir
        .create_unique_file(".skillcase-lock-", 0o644)
        .map_err(InstallError::io(&lock_path(dir.path())))?;
    let written = file
        .write_all(to_text(lock).as_bytes())
        .and_then(|()| file.sync_all())
        .and_then(|()| dir.rename(&temporary, dir, LOCK_FILE))
        .and_then(|()| dir.sync());
    written.map_err(|e| {
        let _ = dir.remove_file(&temporary);
        InstallError::io(&lock_path(dir.path()))(e)
    })
}

/// Removes the lock of the held folder `dir` (an install that failed before anything else was
/// listed there).
pub fn remove(dir: &OpenDir) -> Result<(), InstallError> {
    dir.remove_file(LOCK_FILE).map_err(InstallError::io(&lock_path(dir.path())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(dir: &tempfile::TempDir) -> OpenDir {
        OpenDir::open_named(dir.path()).unwrap()
    }

    /// `sample()` as JSON with its skill `frete` edited by `edit`, written as the lock of `dir`.
    fn edited_lock(dir: &tempfile::TempDir, edit: impl FnOnce(&mut serde_json::Value)) {
        let mut value = serde_json::to_value(sample()).unwrap();
        edit(&mut value);
        std::fs::write(lock_path(dir.path()), value.to_string()).unwrap();
    }

    fn entry_refusal(dir: &tempfile::TempDir) -> (String, String) {
        match read(&held(dir)).unwrap_err() {
            InstallError::LockEntry { skill, reason, .. } => (skill, reason),
            other => panic!("{other}"),
        }
    }

    fn sample() -> Lock {
        let mut lock = Lock::default();
        lock.skills.insert(
            "frete".into(),
            LockedSkill {
                link: None,
                version: Some(7),
                source: SkillSource::Library { name: "frete".into(), data_dir: "/data".into() },
                installed_at: "2026-05-01T10:00:00.000Z".into(),
                files: BTreeMap::from([
                    ("references/tabela.md".to_string(), "bb".repeat(32)),
                    ("SKILL.md".to_string(), "aa".repeat(32)),
                ]),
            },
        );
        lock.skills.insert(
            "boleto".into(),
            LockedSkill {
                link: None,
                version: None,
                source: SkillSource::Folder { path: "/src/boleto".into() },
                installed_at: "2026-05-01T10:00:01.000Z".into(),
                files: BTreeMap::from([("SKILL.md".to_string(), "cc".repeat(32))]),
            },
        );
        lock
    }

    #[test]
    fn a_written_lock_reads_back_equal() {
        let dir = tempfile::tempdir().unwrap();
        write(&held(&dir), &sample()).unwrap();
        assert_eq!(read(&held(&dir)).unwrap(), Some(sample()));
    }

    #[test]
    fn the_lock_is_pretty_json_with_skills_and_files_sorted() {
        let text = to_text(&sample());
        let expected = format!(
            r#"{{
  "lock_version": 1,
  "skills": {{
    "boleto": {{
      "version": null,
      "source": {{
        "kind": "folder",
        "path": "/src/boleto"
      }},
      "installed_at": "2026-05-01T10:00:01.000Z",
      "files": {{
        "SKILL.md": "{c}"
      }}
    }},
    "frete": {{
      "version": 7,
      "source": {{
        "kind": "library",
        "name": "frete",
        "data_dir": "/data"
      }},
      "installed_at": "2026-05-01T10:00:00.000Z",
      "files": {{
        "SKILL.md": "{a}",
        "references/tabela.md": "{b}"
      }}
    }}
  }}
}}
"#,
            a = "aa".repeat(32),
            b = "bb".repeat(32),
            c = "cc".repeat(32)
        );
        assert_eq!(text, expected);
    }

    #[cfg(unix)]
    #[test]
    fn the_lock_is_readable_by_everyone_like_the_copied_files() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        write(&held(&dir), &sample()).unwrap();
        let mode = std::fs::metadata(lock_path(dir.path())).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644);
    }

    #[test]
    fn a_folder_without_a_lock_has_none() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read(&held(&dir)).unwrap(), None);
    }

    #[test]
    fn a_lock_that_is_not_json_is_refused_as_lock_corrupt() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(lock_path(dir.path()), "skills = []\n").unwrap();
        let error = read(&held(&dir)).unwrap_err();
        assert!(matches!(error, InstallError::LockCorrupt { .. }), "{error}");
    }

    #[test]
    fn a_lock_from_a_newer_skillcase_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(lock_path(dir.path()), r#"{"lock_version": 2, "skills": {}}"#).unwrap();
        let error = read(&held(&dir)).unwrap_err().to_string();
        assert!(error.contains("written by a newer Skillcase (lock_version 2"), "{error}");
    }

    #[test]
    fn a_skill_key_that_is_a_path_or_the_lock_itself_is_refused_by_name() {
        for key in [
            "../victim",
            "../../.ssh",
            "/home/ana/.ssh",
            "skillcase.lock",
            ".",
            "..",
            "a/b",
            "Frete",
            "x\u{1b}]52;c;aGk=\u{7}",
        ] {
            let dir = tempfile::tempdir().unwrap();
            edited_lock(&dir, |lock| {
                let skills = lock["skills"].as_object_mut().unwrap();
                let entry = skills.remove("frete").unwrap();
                skills.insert(key.to_string(), entry);
            });
            let (skill, reason) = entry_refusal(&dir);
            assert_eq!(skill, key);
            assert!(reason.contains("is not a skill name"), "{key}: {reason}");
        }
    }

    #[test]
    fn a_file_path_leaving_the_skill_folder_or_a_bad_digest_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        edited_lock(&dir, |lock| lock["skills"]["frete"]["files"]["../../x"] = "aa".repeat(32).into());
        assert!(entry_refusal(&dir).1.contains("\"../../x\" is not a plain path"));
        edited_lock(&dir, |lock| lock["skills"]["frete"]["files"]["SKILL.md"] = "AA".repeat(32).into());
        assert!(entry_refusal(&dir).1.contains("not a SHA-256"));
        edited_lock(&dir, |lock| lock["skills"]["frete"]["source"]["name"] = "../../etc".into());
        assert!(entry_refusal(&dir).1.contains("library source"));
    }

    #[test]
    fn a_relative_folder_source_is_found_beside_the_lock_never_where_the_command_runs() {
        let relative = SkillSource::Folder { path: "../../skills/frete".into() };
        assert_eq!(
            relative.located_in(Path::new("/work/shop/.claude/skills")),
            SkillSource::Folder { path: "/work/shop/.claude/skills/../../skills/frete".into() }
        );
        let absolute = SkillSource::Folder { path: "/src/frete".into() };
        assert_eq!(absolute.located_in(Path::new("/elsewhere")), absolute);
    }

    #[cfg(unix)]
    #[test]
    fn a_lock_that_is_a_fifo_or_a_link_is_refused_at_once_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        skillcase_testkit::hostile::make_fifo(&lock_path(dir.path()));
        let (tx, rx) = std::sync::mpsc::channel();
        let handle = held(&dir);
        std::thread::spawn(move || {
            let _ = tx.send(read(&handle).map_err(|e| e.to_string()));
        });
        let answer = rx.recv_timeout(std::time::Duration::from_secs(5)).expect("reading a FIFO lock blocked");
        assert!(answer.unwrap_err().contains("a FIFO (named pipe), not a regular file"));
        let linked = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(lock_path(dir.path()), lock_path(linked.path())).unwrap();
        assert!(read(&held(&linked)).unwrap_err().to_string().contains("symbolic link"));
    }
}
