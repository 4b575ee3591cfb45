//! The skills as the Skills extension publishes them: one [`SkillEntry`] per served skill, built
//! from the skill's stored version — the manifest recorded with it (every file's sha256 and
//! size) and the frontmatter of its stored `SKILL.md` — and the files' bytes read back from the
//! blob store by digest, so what `resources/read` returns is always what the entry announced.
//!
//! Everything is read through the application ([`App::served_skills`], [`App::served_file`],
//! ...), from the same stored versions as the `read_skill` and `read_skill_file` tools and the
//! HTTP API's levels 2 and 3: a folder edited or left invalid on disk changes none of them until
//! the library has recorded it, and then all of them alike.
//!
//! Versions are immutable, so an entry is built once per version and kept: a listing of 1,000
//! skills is an assembly of cached entries, and an edit (a new version) simply makes a new one.
//! Only skills that load without errors are served; hidden ones (`disable-model-invocation`)
//! are left out of listings but answer by name.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{json, Map, Value};
use skillcase_application::domain::library::served::{ServedSkill, ServedVersion};
use skillcase_application::domain::library::ManifestEntry;
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

/// The codes with which the application says a skill or file is not served: to a client, an
/// unknown resource rather than a failure.
const NOT_SERVED: [&str; 4] = ["skill_not_found", "skill_invalid", "skill_name_invalid", "file_not_in_skill"];

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
        tokio::spawn(async move {
            let _ = catalog.all().await;
        });
    }

    /// Up to `limit` listed (not hidden) entries after the skill named `after`, in name order,
    /// and whether more follow.
    pub async fn page(
        self: &Arc<Self>,
        after: Option<String>,
        limit: usize,
    ) -> Result<(Vec<Arc<SkillEntry>>, bool), ProtocolError> {
        let listed = self.all().await?.into_iter().filter(|entry| !entry.hidden);
        let mut rest: Vec<Arc<SkillEntry>> = match &after {
            Some(after) => listed.skip_while(|entry| entry.name <= *after).take(limit + 1).collect(),
            None => listed.take(limit + 1).collect(),
        };
        let more = rest.len() > limit;
        rest.truncate(limit);
        Ok((rest, more))
    }

    /// The entry of the served skill `name` (hidden ones too); `None` when no such skill is
    /// served.
    pub async fn skill(self: &Arc<Self>, name: String) -> Result<Option<Arc<SkillEntry>>, ProtocolError> {
        let served = match self.app.served_skill(name).await {
            Ok(served) => served,
            Err(refused) if NOT_SERVED.contains(&refused.code.as_str()) => return Ok(None),
            Err(other) => return Err(ProtocolError::Internal(other)),
        };
        if let Some(entry) = self.cached(&served) {
            return Ok(Some(entry));
        }
        let version =
            self.app.served_versions(vec![served.clone()]).await.map_err(ProtocolError::Internal)?;
        let version = version.into_iter().next().ok_or_else(|| {
            ProtocolError::Internal(ErrorBody::new(
                "blob_missing",
                format!("the stored files of {} are missing from the blob store", served.name),
            ))
        })?;
        Ok(Some(self.keep(build(version))))
    }

    /// The stored bytes of the file `uri` names, with its manifest entry; `None` when it names no
    /// file of a served skill.
    pub async fn file(
        self: &Arc<Self>,
        at: SkillUri,
    ) -> Result<Option<(ManifestEntry, Vec<u8>)>, ProtocolError> {
        match self.app.served_file(at.name, at.path).await {
            Ok(file) => Ok(Some(file)),
            Err(refused) if NOT_SERVED.contains(&refused.code.as_str()) => Ok(None),
            Err(other) => Err(ProtocolError::Internal(other)),
        }
    }

    /// Every served skill's entry; entries of versions no longer served are dropped. A skill
    /// whose entry cannot be built (a blob gone missing) is left out rather than failing all.
    async fn all(&self) -> Result<Vec<Arc<SkillEntry>>, ProtocolError> {
        let served = self.app.served_skills().await.map_err(ProtocolError::Internal)?;
        let missing: Vec<ServedSkill> = served.iter().filter(|s| self.cached(s).is_none()).cloned().collect();
        if !missing.is_empty() {
            let built = self.app.served_versions(missing).await.map_err(ProtocolError::Internal)?;
            for version in built {
                self.keep(build(version));
            }
        }
        let entries: Vec<Arc<SkillEntry>> = served.iter().filter_map(|s| self.cached(s)).collect();
        let mut cache = self.lock();
        if cache.len() > entries.len() {
            cache.retain(|version, _| entries.iter().any(|e| e.version == *version));
        }
        Ok(entries)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Arc<SkillEntry>>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The cached entry of `skill`'s version. The hidden flag is the served one, so a change of
    /// `skill.config.yaml` alone (a new version anyway) is always seen.
    fn cached(&self, skill: &ServedSkill) -> Option<Arc<SkillEntry>> {
        self.lock().get(&skill.version).filter(|entry| entry.name == skill.name).cloned()
    }

    fn keep(&self, entry: SkillEntry) -> Arc<SkillEntry> {
        let entry = Arc::new(entry);
        self.lock().insert(entry.version, Arc::clone(&entry));
        entry
    }
}

fn build(version: ServedVersion) -> SkillEntry {
    let ServedVersion { served, files, skill_md } = version;
    let frontmatter = frontmatter::to_json(&String::from_utf8_lossy(&skill_md)).unwrap_or_else(|| {
        let mut minimal = Map::new();
        minimal.insert("name".into(), Value::String(served.name.clone()));
        minimal
    });
    let description = frontmatter.get("description").and_then(Value::as_str).map(str::to_string);
    let resources: Vec<Value> = files
        .iter()
        .map(|f| json!({ "uri": uri::of(&served.name, &f.path), "digest": format!("sha256:{}", f.sha256), "size": f.size }))
        .collect();
    let wire = json!({
        "uri": uri::of(&served.name, SKILL_MD),
        "frontmatter": frontmatter,
        "resources": resources,
    });
    SkillEntry { name: served.name, version: served.version, hidden: served.hidden, files, description, wire }
}
