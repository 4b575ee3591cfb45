//! The skills as the Skills extension publishes them: one [`SkillEntry`] per served skill, built
//! from the skill's stored live version — the manifest recorded with it (every file's sha256
//! and size) and the frontmatter of its stored `SKILL.md` — and the files' bytes read back from
//! the blob store by digest, so what `resources/read` returns is always what the entry announced.
//!
//! Versions are immutable, so an entry is built once per version and kept: a listing of 1,000
//! skills is an assembly of cached entries, and an edit (a new version) simply makes a new one.
//! Only skills that load without errors are served; hidden ones (`disable-model-invocation`)
//! are left out of listings but answer by name.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{json, Map, Value};
use skillcase_application::domain::library::served::ServedSkill;
use skillcase_application::domain::library::{Library, LibraryError, ManifestEntry};
use skillcase_application::App;
use skillcase_common::ErrorBody;

use crate::error::ProtocolError;
use crate::frontmatter;
use crate::uri::{self, SkillUri};

/// The one file every skill has.
pub const SKILL_MD: &str = "SKILL.md";

/// One served skill as the extension's `Skill` entry.
#[derive(Debug)]
pub struct SkillEntry {
    pub name: String,
    pub version: i64,
    pub hidden: bool,
    /// The stored files, in path order.
    pub files: Vec<ManifestEntry>,
    /// `description` from the frontmatter (for `resources/list`).
    pub description: Option<String>,
    /// The wire object: `{uri, frontmatter, resources: [{uri, digest, size}]}`.
    pub wire: Value,
}

impl SkillEntry {
    /// The manifest entry of `path`, if the skill has that file.
    pub fn file(&self, path: &str) -> Option<&ManifestEntry> {
        self.files.iter().find(|f| f.path == path)
    }
}

/// The served skills' entries, shared by every connection of one process.
#[derive(Debug)]
pub struct Catalog {
    app: App,
    entries: Mutex<HashMap<i64, Arc<SkillEntry>>>,
}

impl Catalog {
    /// An empty catalog over `app`'s library; one per process, shared by its connections so an
    /// entry is built once for all of them.
    pub fn new(app: App) -> Arc<Catalog> {
        Arc::new(Catalog { app, entries: Mutex::new(HashMap::new()) })
    }

    /// Builds every served skill's entry in the background, so the first listing is as fast as
    /// the next.
    pub fn warm(self: &Arc<Self>) {
        let catalog = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let _ = catalog.with_library(|catalog, lib| Ok(catalog.all(lib)));
        });
    }

    /// Up to `limit` listed (not hidden) entries after the skill named `after`, in name order,
    /// and whether more follow.
    pub async fn page(
        self: &Arc<Self>,
        after: Option<String>,
        limit: usize,
    ) -> Result<(Vec<Arc<SkillEntry>>, bool), ProtocolError> {
        self.blocking(move |catalog, lib| {
            let listed = catalog.all(lib).into_iter().filter(|entry| !entry.hidden);
            let mut rest: Vec<Arc<SkillEntry>> = match &after {
                Some(after) => listed.skip_while(|entry| entry.name <= *after).take(limit + 1).collect(),
                None => listed.take(limit + 1).collect(),
            };
            let more = rest.len() > limit;
            rest.truncate(limit);
            Ok((rest, more))
        })
        .await
    }

    /// The entry of the served skill `name` (hidden ones too); `None` when no such skill is
    /// served.
    pub async fn skill(self: &Arc<Self>, name: String) -> Result<Option<Arc<SkillEntry>>, ProtocolError> {
        self.blocking(move |catalog, lib| catalog.one(lib, &name)).await
    }

    /// The stored bytes of the file `uri` names, with its manifest entry; `None` when it names no
    /// file of a served skill.
    pub async fn file(
        self: &Arc<Self>,
        at: SkillUri,
    ) -> Result<Option<(ManifestEntry, Vec<u8>)>, ProtocolError> {
        self.blocking(move |catalog, lib| {
            let Some(entry) = catalog.one(lib, &at.name)? else { return Ok(None) };
            let Some(file) = entry.file(&at.path) else { return Ok(None) };
            let bytes = lib.stored_file(file).map_err(internal)?;
            Ok(Some((file.clone(), bytes)))
        })
        .await
    }

    fn with_library<T>(
        &self,
        work: impl FnOnce(&Catalog, &Library) -> Result<T, ProtocolError>,
    ) -> Result<T, ProtocolError> {
        let lib = self.app.library().map_err(ProtocolError::Internal)?;
        work(self, &lib)
    }

    async fn blocking<T: Send + 'static>(
        self: &Arc<Self>,
        work: impl FnOnce(&Catalog, &Library) -> Result<T, ProtocolError> + Send + 'static,
    ) -> Result<T, ProtocolError> {
        let catalog = Arc::clone(self);
        tokio::task::spawn_blocking(move || catalog.with_library(work))
            .await
            .unwrap_or_else(|e| Err(ProtocolError::Internal(ErrorBody::new("task_failed", e.to_string()))))
    }

    /// Every served skill's entry; entries of versions no longer served are dropped. A skill
    /// whose entry cannot be built (a blob gone missing) is left out rather than failing all.
    fn all(&self, lib: &Library) -> Vec<Arc<SkillEntry>> {
        let served = lib.served_skills();
        let entries: Vec<Arc<SkillEntry>> =
            served.iter().filter_map(|skill| self.entry(lib, skill).ok()).collect();
        let mut cache = self.lock();
        if cache.len() > entries.len() {
            cache.retain(|version, _| entries.iter().any(|e| e.version == *version));
        }
        entries
    }

    fn one(&self, lib: &Library, name: &str) -> Result<Option<Arc<SkillEntry>>, ProtocolError> {
        match lib.served_skill(name) {
            Ok(skill) => Ok(Some(self.entry(lib, &skill)?)),
            Err(LibraryError::NotFound { .. } | LibraryError::Invalid { .. }) => Ok(None),
            Err(other) => Err(internal(other)),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Arc<SkillEntry>>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn entry(&self, lib: &Library, skill: &ServedSkill) -> Result<Arc<SkillEntry>, ProtocolError> {
        if let Some(entry) = self.lock().get(&skill.version) {
            return Ok(Arc::clone(entry));
        }
        let entry = Arc::new(build(lib, skill)?);
        self.lock().insert(skill.version, Arc::clone(&entry));
        Ok(entry)
    }
}

fn build(lib: &Library, skill: &ServedSkill) -> Result<SkillEntry, ProtocolError> {
    let mut files = lib.version_manifest(&skill.name, skill.version).map_err(internal)?;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let skill_md = files.iter().find(|f| f.path == SKILL_MD).ok_or_else(|| {
        internal(LibraryError::FileNotFound { name: skill.name.clone(), path: SKILL_MD.into() })
    })?;
    let text = lib.stored_file(skill_md).map_err(internal)?;
    let frontmatter = frontmatter::to_json(&String::from_utf8_lossy(&text)).unwrap_or_else(|| {
        let mut minimal = Map::new();
        minimal.insert("name".into(), Value::String(skill.name.clone()));
        minimal
    });
    let description = frontmatter.get("description").and_then(Value::as_str).map(str::to_string);
    let resources: Vec<Value> = files
        .iter()
        .map(|f| json!({ "uri": uri::of(&skill.name, &f.path), "digest": format!("sha256:{}", f.sha256), "size": f.size }))
        .collect();
    let wire = json!({
        "uri": uri::of(&skill.name, SKILL_MD),
        "frontmatter": frontmatter,
        "resources": resources,
    });
    Ok(SkillEntry {
        name: skill.name.clone(),
        version: skill.version,
        hidden: skill.hidden,
        files,
        description,
        wire,
    })
}

fn internal(error: LibraryError) -> ProtocolError {
    ProtocolError::Internal(error.into())
}
