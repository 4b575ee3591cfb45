//! The incremental pull: which files a pull must download (only those whose bytes are not in the
//! blob store yet — a file unchanged since the last pull, or shared with any stored version, is
//! never fetched again), the check of every download against what the catalog announced, and the
//! recording of the pull in one step with a report per skill (new, updated, unchanged, removed,
//! revoked).

use std::collections::{HashMap, HashSet};

use super::error::RemoteError;
use super::store::{PullWrite, PulledRow};
use super::types::{PullChange, PullReport, PulledSkill};
use super::wire::Upstream;
use crate::types::ManifestEntry;
use crate::versions::content_hash;
use crate::{Library, LibraryError};
use skillcase_skill::files::kind_of;
use skillcase_store::blobs::sha256_hex;

/// One file a pull downloads: the first skill and path that name its digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    pub skill: String,
    pub path: String,
    pub sha256: String,
    pub size: u64,
}

/// Checks downloaded `bytes` against what the catalog at `url` announced for them: the size
/// first, then the sha256. A mismatch is `catalog_digest_mismatch`.
pub fn check_download(url: &str, wanted: &Wanted, bytes: &[u8]) -> Result<(), RemoteError> {
    let mismatch = |reason: String| RemoteError::DigestMismatch {
        url: url.to_string(),
        skill: wanted.skill.clone(),
        path: wanted.path.clone(),
        reason,
    };
    if bytes.len() as u64 != wanted.size {
        return Err(mismatch(format!(
            "{} bytes arrived, the catalog announced {}",
            bytes.len(),
            wanted.size
        )));
    }
    let actual = sha256_hex(bytes);
    if actual != wanted.sha256 {
        return Err(mismatch(format!("sha256 {actual}, the catalog announced {}", wanted.sha256)));
    }
    Ok(())
}

/// The manifest of an upstream skill, as a library version would record it.
fn manifest_of(skill: &Upstream) -> Vec<ManifestEntry> {
    let mut manifest: Vec<ManifestEntry> = skill
        .files
        .iter()
        .map(|f| ManifestEntry {
            path: f.path.clone(),
            size: f.size,
            sha256: f.sha256.clone(),
            kind: kind_of(&f.path),
        })
        .collect();
    manifest.sort_by(|a, b| a.path.cmp(&b.path));
    manifest
}

impl Library {
    /// The files of `upstream` a pull must download: each distinct digest not in the blob store,
    /// once. Revoked skills download nothing.
    pub fn files_to_fetch(&self, upstream: &[Upstream]) -> Vec<Wanted> {
        let mut seen = HashSet::new();
        let mut wanted = Vec::new();
        for skill in upstream.iter().filter(|s| !s.revoked) {
            for file in &skill.files {
                if seen.insert(file.sha256.clone()) && !self.blobs.contains(&file.sha256) {
                    wanted.push(Wanted {
                        skill: skill.name.clone(),
                        path: file.path.clone(),
                        sha256: file.sha256.clone(),
                        size: file.size,
                    });
                }
            }
        }
        wanted
    }

    /// Records a successful pull of `catalog`: the downloaded files (each checked again) go into
    /// the blob store and are synced to disk, then what the catalog offers now replaces what the
    /// last pull found, in one transaction; skills gone since are kept, marked removed. Nothing
    /// is recorded unless every file of every listed skill is stored.
    pub fn record_pull(
        &self,
        catalog: i64,
        upstream: Vec<Upstream>,
        downloaded: Vec<(Wanted, Vec<u8>)>,
    ) -> Result<PullReport, LibraryError> {
        let row = self.catalog_row(catalog)?;
        for (wanted, bytes) in &downloaded {
            check_download(&row.url, wanted, bytes)?;
        }
        let mut fetched: HashMap<String, u32> = HashMap::new();
        let mut bytes_downloaded = 0u64;
        for (wanted, bytes) in &downloaded {
            self.blobs.put(&wanted.sha256, bytes, false).map_err(LibraryError::io(self.blobs.root()))?;
            *fetched.entry(wanted.skill.clone()).or_default() += 1;
            bytes_downloaded += bytes.len() as u64;
        }
        let written: Vec<String> = downloaded.iter().map(|(w, _)| w.sha256.clone()).collect();
        self.blobs.sync_all(&written).map_err(LibraryError::io(self.blobs.root()))?;

        let previous: HashMap<String, PulledRow> =
            self.remote.pulled(Some(catalog))?.into_iter().map(|r| (r.name.clone(), r)).collect();
        let stamp = crate::now();
        let mut write = PullWrite::default();
        let mut skills = Vec::new();
        let listed: HashSet<&str> = upstream.iter().map(|s| s.name.as_str()).collect();
        for skill in &upstream {
            let before = previous.get(&skill.name);
            if skill.revoked {
                if before.is_some() {
                    write.removed.push((skill.name.clone(), true));
                    skills.push(pulled(skill, PullChange::Revoked, 0));
                }
                continue;
            }
            let manifest = manifest_of(skill);
            if let Some(missing) = manifest.iter().find(|m| !self.blobs.contains(&m.sha256)) {
                return Err(LibraryError::BlobMissing {
                    path: missing.path.clone(),
                    sha256: missing.sha256.clone(),
                });
            }
            let digest = content_hash(&manifest);
            let change = match before {
                None => PullChange::New,
                Some(b) if b.removed_at.is_some() => PullChange::New,
                Some(b) if b.digest != digest => PullChange::Updated,
                Some(_) => PullChange::Unchanged,
            };
            skills.push(pulled(skill, change, fetched.get(&skill.name).copied().unwrap_or(0)));
            write.present.push(PulledRow {
                catalog_id: catalog,
                name: skill.name.clone(),
                version: skill.version.clone(),
                description: skill.description.clone(),
                manifest,
                digest,
                pulled_at: stamp.clone(),
                removed_at: None,
                revoked: false,
            });
        }
        for (name, before) in &previous {
            if !listed.contains(name.as_str()) && before.removed_at.is_none() {
                write.removed.push((name.clone(), false));
                skills.push(PulledSkill {
                    name: name.clone(),
                    change: PullChange::Removed,
                    version: before.version.clone(),
                    downloaded: 0,
                });
            }
        }
        self.remote.record_pull(catalog, write)?;
        skills.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(PullReport {
            catalog,
            url: row.url,
            skills,
            files_downloaded: downloaded.len() as u32,
            bytes_downloaded,
        })
    }
}

fn pulled(skill: &Upstream, change: PullChange, downloaded: u32) -> PulledSkill {
    PulledSkill { name: skill.name.clone(), change, version: skill.version.clone(), downloaded }
}
