//! The incremental pull: which files a pull must download (only those whose bytes are not in the
//! blob store yet — a file unchanged since the last pull, or shared with any stored version, is
//! never fetched again), the check of every download against what the catalog announced as it
//! arrives, and the recording of the pull in one step with a report per skill (new, updated,
//! unchanged, removed, revoked).
//!
//! Downloads go to disk as they arrive ([`Downloads`]: a staging folder of the blob store), never
//! into memory, and enter the store only when the whole pull is recorded.

use std::collections::{HashMap, HashSet};

use super::error::RemoteError;
use super::store::{PullWrite, PulledRow};
use super::types::{PullChange, PullReport, PulledSkill};
use super::wire::Upstream;
use crate::types::ManifestEntry;
use crate::versions::content_hash;
use crate::{Library, LibraryError};
use skillcase_skill::files::kind_of;
use skillcase_store::blobs::{StagedBlob, Staging};

/// The most bytes one pull downloads (1 GiB): a catalog announcing more is refused before a
/// byte is fetched, so a pull cannot fill the disk.
pub const MAX_PULL_BYTES: u64 = 1024 * 1024 * 1024;

/// One file a pull downloads: the first skill and path that name its digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    pub skill: String,
    pub path: String,
    pub sha256: String,
    pub size: u64,
}

/// What a pull has downloaded so far, each file checked and on disk in a staging folder of the
/// blob store. [`Library::record_pull`] moves them into the store; dropped instead, nothing of
/// them is kept.
#[derive(Debug)]
pub struct Downloads {
    url: String,
    staging: Staging,
    /// Files downloaded per skill.
    fetched: HashMap<String, u32>,
    files: u32,
    bytes: u64,
}

/// One file arriving: its bytes go to its staged file as they come, and no more than the catalog
/// announced are taken.
#[derive(Debug)]
pub struct Download {
    wanted: Wanted,
    blob: StagedBlob,
    url: String,
}

impl Download {
    /// What is being downloaded.
    pub fn wanted(&self) -> &Wanted {
        &self.wanted
    }

    /// Appends the next bytes. More than the catalog announced is `catalog_digest_mismatch` at
    /// once, so the caller stops reading.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), LibraryError> {
        if self.blob.written() + bytes.len() as u64 > self.wanted.size {
            return Err(mismatch(
                &self.url,
                &self.wanted,
                format!("more than the {} bytes the catalog announced arrived", self.wanted.size),
            ));
        }
        self.blob.write(bytes).map_err(|e| staging_error(&self.url, e))
    }
}

impl Downloads {
    /// Starts downloading `wanted`.
    pub fn start(&self, wanted: &Wanted) -> Result<Download, LibraryError> {
        let blob = self.staging.start(&wanted.sha256).map_err(|e| staging_error(&self.url, e))?;
        Ok(Download { wanted: wanted.clone(), blob, url: self.url.clone() })
    }

    /// Ends a download: its size, then its sha256, must be what the catalog announced
    /// (`catalog_digest_mismatch`, the file dropped).
    pub fn finish(&mut self, download: Download) -> Result<(), LibraryError> {
        let Download { wanted, blob, url } = download;
        let size = blob.written();
        let actual = self.staging.finish(blob).map_err(|e| staging_error(&url, e))?;
        if size != wanted.size {
            return Err(mismatch(
                &url,
                &wanted,
                format!("{size} bytes arrived, the catalog announced {}", wanted.size),
            ));
        }
        if actual != wanted.sha256 {
            return Err(mismatch(
                &url,
                &wanted,
                format!("sha256 {actual}, the catalog announced {}", wanted.sha256),
            ));
        }
        *self.fetched.entry(wanted.skill).or_default() += 1;
        self.files += 1;
        self.bytes += size;
        Ok(())
    }
}

fn mismatch(url: &str, wanted: &Wanted, reason: String) -> LibraryError {
    RemoteError::DigestMismatch {
        url: url.to_string(),
        skill: wanted.skill.clone(),
        path: wanted.path.clone(),
        reason,
    }
    .into()
}

fn staging_error(url: &str, source: std::io::Error) -> LibraryError {
    LibraryError::Io { path: format!("the downloads of {url}"), source }
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
    /// The files of `upstream` a pull of the catalog at `url` must download: each distinct digest
    /// not in the blob store, once. Revoked skills download nothing. More than
    /// [`MAX_PULL_BYTES`] in all is `catalog_too_large`.
    pub fn files_to_fetch(&self, url: &str, upstream: &[Upstream]) -> Result<Vec<Wanted>, RemoteError> {
        let mut seen = HashSet::new();
        let mut wanted = Vec::new();
        let mut bytes = 0u64;
        for skill in upstream.iter().filter(|s| !s.revoked) {
            for file in &skill.files {
                if seen.insert(file.sha256.clone()) && !self.blobs.contains(&file.sha256) {
                    bytes = bytes.saturating_add(file.size);
                    wanted.push(Wanted {
                        skill: skill.name.clone(),
                        path: file.path.clone(),
                        sha256: file.sha256.clone(),
                        size: file.size,
                    });
                }
            }
        }
        if bytes > MAX_PULL_BYTES {
            return Err(RemoteError::TooLarge {
                url: url.to_string(),
                reason: format!(
                    "this pull would download {bytes} bytes, at most {} MiB",
                    MAX_PULL_BYTES / 1024 / 1024
                ),
            });
        }
        Ok(wanted)
    }

    /// A place for the downloads of a pull of the catalog at `url`.
    pub fn downloads(&self, url: &str) -> Result<Downloads, LibraryError> {
        let staging = self.blobs.staging().map_err(|e| staging_error(url, e))?;
        Ok(Downloads { url: url.to_string(), staging, fetched: HashMap::new(), files: 0, bytes: 0 })
    }

    /// Records a successful pull of `catalog`: the downloaded files (each checked as it arrived)
    /// move into the blob store and are synced to disk, then what the catalog offers now replaces
    /// what the last pull found, in one transaction; skills gone since are kept, marked removed.
    /// Nothing is recorded unless every file of every listed skill is stored.
    pub fn record_pull(
        &self,
        catalog: i64,
        upstream: Vec<Upstream>,
        downloads: Downloads,
    ) -> Result<PullReport, LibraryError> {
        let row = self.catalog_row(catalog)?;
        let Downloads { staging, fetched, files, bytes, .. } = downloads;
        let arrived: HashSet<&str> = staging.kept().iter().map(String::as_str).collect();
        let missing = upstream
            .iter()
            .filter(|s| !s.revoked)
            .flat_map(|s| &s.files)
            .find(|f| !arrived.contains(f.sha256.as_str()) && !self.blobs.contains(&f.sha256));
        if let Some(missing) = missing {
            return Err(LibraryError::BlobMissing {
                path: missing.path.clone(),
                sha256: missing.sha256.clone(),
            });
        }
        staging.commit().map_err(LibraryError::io(self.blobs.root()))?;

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
        Ok(PullReport { catalog, url: row.url, skills, files_downloaded: files, bytes_downloaded: bytes })
    }
}

fn pulled(skill: &Upstream, change: PullChange, downloaded: u32) -> PulledSkill {
    PulledSkill { name: skill.name.clone(), change, version: skill.version.clone(), downloaded }
}
