//! Reading and writing one ecosystem lock file (see the module's rules).

use std::io::Write;
use std::path::Path;

use indexmap::IndexMap;
use serde_json::Value;
use skillcase_skill::skill_dir::{FileError, OpenDir};

use crate::install::error::InstallError;

/// The project lock's file name, in the project folder.
pub const PROJECT_LOCK: &str = "skills-lock.json";
/// The user lock's file name, in `~/.agents` (or `$XDG_STATE_HOME/skills`).
pub const USER_LOCK: &str = ".skill-lock.json";
const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// Which of the two locks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockKind {
    /// `skills-lock.json`: version 1, `computedHash`, skills sorted, a final newline.
    Project,
    /// `.skill-lock.json`: version 3, `skillFolderHash` and timestamps, no final newline.
    User,
}

impl LockKind {
    fn version(self) -> u64 {
        match self {
            LockKind::Project => 1,
            LockKind::User => 3,
        }
    }

    /// The file's name.
    pub fn file(self) -> &'static str {
        match self {
            LockKind::Project => PROJECT_LOCK,
            LockKind::User => USER_LOCK,
        }
    }

    fn hash_key(self) -> &'static str {
        match self {
            LockKind::Project => "computedHash",
            LockKind::User => "skillFolderHash",
        }
    }
}

type Object = IndexMap<String, Value>;

/// One ecosystem lock, every key kept in the order it was read.
#[derive(Debug, Clone, PartialEq)]
pub struct EcoLock {
    kind: LockKind,
    doc: Object,
    skills: IndexMap<String, Object>,
}

/// Where a recorded skill came from, in the ecosystem's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EcoSource {
    /// A folder path (`local`) or the repository URL (`git`).
    pub source: String,
    /// `local` or `git`.
    pub source_type: &'static str,
    /// The URL the source was fetched from, for `git`.
    pub source_url: Option<String>,
    /// The branch or tag followed, for `git`.
    pub reference: Option<String>,
}

/// What an entry says about one installed skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EcoEntry {
    pub name: String,
    /// `owner/repo`, a git URL, a folder path, a package name, ….
    pub source: String,
    /// `github`, `gitlab`, `git`, `local`, `well-known`, `node_modules`, ….
    pub source_type: String,
    /// The folder hash: 64 hex digits for the CLI's own hash, 40 for a GitHub tree id, `None`
    /// when the entry has none (or an empty one).
    pub hash: Option<String>,
}

impl EcoLock {
    /// A lock with no skill yet.
    pub fn empty(kind: LockKind) -> EcoLock {
        let mut doc = Object::new();
        doc.insert("version".into(), Value::from(kind.version()));
        doc.insert("skills".into(), Value::Null);
        if kind == LockKind::User {
            doc.insert("dismissed".into(), Value::Object(Default::default()));
        }
        EcoLock { kind, doc, skills: IndexMap::new() }
    }

    /// The lock in the held folder `dir`, `None` when it has none. Refused (`lock_corrupt`) when
    /// it is not a regular file, not JSON, or has a `version` other than the one this build
    /// writes: the `skills` CLI would start such a file afresh; Skillcase never drops what it
    /// cannot read.
    pub fn read(dir: &OpenDir, kind: LockKind) -> Result<Option<EcoLock>, InstallError> {
        let path = dir.path().join(kind.file()).display().to_string();
        let corrupt = |reason: String| InstallError::LockCorrupt { path: path.clone(), reason };
        let bytes = match dir.read_file(kind.file(), MAX_BYTES) {
            Ok(None) => return Ok(None),
            Ok(Some(bytes)) => bytes,
            Err(FileError::Symlink { .. }) => {
                return Err(corrupt("it is a symbolic link, not a regular file".into()))
            }
            Err(other) => return Err(corrupt(other.to_string())),
        };
        let mut doc: Object = serde_json::from_slice(&bytes).map_err(|e| corrupt(e.to_string()))?;
        match doc.get("version").and_then(Value::as_u64) {
            Some(v) if v == kind.version() => {}
            Some(v) => {
                return Err(corrupt(format!("version {v}; this build reads version {}", kind.version())))
            }
            None => return Err(corrupt("it has no numeric `version`".into())),
        }
        #[derive(serde::Deserialize)]
        struct Skills {
            skills: Option<IndexMap<String, Object>>,
        }
        let skills = serde_json::from_slice::<Skills>(&bytes)
            .map_err(|e| corrupt(format!("`skills` is not an object of entries: {e}")))?
            .skills
            .unwrap_or_default();
        doc.insert("skills".into(), Value::Null);
        Ok(Some(EcoLock { kind, doc, skills }))
    }

    /// Every entry, in the file's order.
    pub fn entries(&self) -> Vec<EcoEntry> {
        let text = |entry: &Object, key: &str| {
            entry.get(key).and_then(Value::as_str).unwrap_or_default().to_string()
        };
        self.skills
            .iter()
            .map(|(name, entry)| EcoEntry {
                name: name.clone(),
                source: text(entry, "source"),
                source_type: text(entry, "sourceType"),
                hash: Some(text(entry, self.kind.hash_key())).filter(|h| !h.is_empty()),
            })
            .collect()
    }

    /// Whether an entry names the skill `name`.
    pub fn lists(&self, name: &str) -> bool {
        self.skills.contains_key(name)
    }

    /// Records the skill `name`, copied from the folder `source` (as the lock names it) with the
    /// folder hash `hash`, at `now` (RFC 3339).
    pub fn record_local(&mut self, name: &str, source: &str, hash: &str, now: &str) {
        let from =
            EcoSource { source: source.to_string(), source_type: "local", source_url: None, reference: None };
        self.record(name, &from, hash, now);
    }

    /// Records the skill `name` from `from` with the folder hash `hash`, at `now` (RFC 3339): its
    /// entry replaced (a user entry keeps its `installedAt`), every other entry left as it was.
    /// No `skillPath` is written: the `skills` CLI would clone and reinstall such an entry for
    /// every agent on its next update.
    pub fn record(&mut self, name: &str, from: &EcoSource, hash: &str, now: &str) {
        let mut entry = Object::new();
        entry.insert("source".into(), from.source.clone().into());
        if self.kind == LockKind::Project {
            if let Some(url) = &from.source_url {
                entry.insert("sourceUrl".into(), url.clone().into());
            }
            if let Some(reference) = &from.reference {
                entry.insert("ref".into(), reference.clone().into());
            }
        }
        entry.insert("sourceType".into(), from.source_type.into());
        match self.kind {
            LockKind::Project => {
                entry.insert("computedHash".into(), hash.into());
            }
            LockKind::User => {
                let installed = self.skills.get(name).and_then(|e| e.get("installedAt")).cloned();
                entry.insert(
                    "sourceUrl".into(),
                    from.source_url.clone().unwrap_or_else(|| from.source.clone()).into(),
                );
                if let Some(reference) = &from.reference {
                    entry.insert("ref".into(), reference.clone().into());
                }
                entry.insert("skillFolderHash".into(), hash.into());
                entry.insert("installedAt".into(), installed.unwrap_or_else(|| now.into()));
                entry.insert("updatedAt".into(), now.into());
            }
        }
        self.skills.insert(name.to_string(), entry);
    }

    /// The file's text, as the `skills` CLI writes it: two-space JSON; a project lock with its
    /// skills sorted by name and a final newline, a user lock in its own order without one.
    pub fn to_text(&self) -> String {
        let mut skills = self.skills.clone();
        if self.kind == LockKind::Project {
            skills.sort_keys();
        }
        let doc = Written { doc: &self.doc, skills: &skills };
        let mut text = serde_json::to_string_pretty(&doc).expect("JSON values serialise");
        if self.kind == LockKind::Project {
            text.push('\n');
        }
        text
    }

    /// Replaces the lock in the held folder `dir` whole (a temporary file renamed over it).
    pub fn write(&self, dir: &OpenDir) -> Result<(), InstallError> {
        let path = dir.path().join(self.kind.file());
        let (temporary, mut file) =
            dir.create_unique_file(".skillcase-eco-", 0o644).map_err(InstallError::io(&path))?;
        let written = file
            .write_all(self.to_text().as_bytes())
            .and_then(|()| file.sync_all())
            .and_then(|()| dir.rename(&temporary, dir, self.kind.file()))
            .and_then(|()| dir.sync());
        written.map_err(|e| {
            let _ = dir.remove_file(&temporary);
            InstallError::io(&path)(e)
        })
    }
}

/// The document with its skills in place, every map in its own order (a `serde_json::Value` would
/// sort the keys).
struct Written<'a> {
    doc: &'a Object,
    skills: &'a IndexMap<String, Object>,
}

impl serde::Serialize for Written<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.doc.len() + 1))?;
        for (key, value) in self.doc {
            match key.as_str() {
                "skills" => map.serialize_entry(key, self.skills)?,
                _ => map.serialize_entry(key, value)?,
            }
        }
        if !self.doc.contains_key("skills") {
            map.serialize_entry("skills", self.skills)?;
        }
        map.end()
    }
}

/// How a lock names a local source folder: relative to the lock's folder (`./x`, `../x`) when it
/// is inside it, as the `skills` CLI stores project sources, else the absolute path.
pub fn local_source(source: &Path, lock_dir: &Path, kind: LockKind) -> String {
    match (kind, source.strip_prefix(lock_dir)) {
        (LockKind::Project, Ok(rel)) => format!("./{}", rel.to_string_lossy().replace('\\', "/")),
        _ => source.display().to_string(),
    }
}

#[cfg(test)]
#[path = "lock_tests.rs"]
mod tests;
