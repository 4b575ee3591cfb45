//! Bringing the library in line with the folders on disk: the start-up [`Library::scan`] of the
//! whole skills directory and catalog, and [`Library::sync_skill`] for one folder the watcher saw
//! change. The folder on disk is the truth; content not yet recorded becomes a version.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;
use ts_rs::TS;

use super::repository::{NewVersion, Pointer};
use super::scan::{fingerprint, skill_folders, SkillFolder};
use super::state::Entry;
use super::versions::{content_of, Content};
use super::{check_name, now, Library, LibraryError, Source, PROFILE};
use skillcase_common::events::DomainEvent;
use skillcase_common::parallel;
use skillcase_skill::discover::holds_skill_md;
use skillcase_skill::load::{index_entry_from, package_from, LoadError};
use skillcase_skill::package::Package;
use skillcase_skill::skill_dir::{FileError, Reach, SkillDir};
use skillcase_skill::validate::{validate_package, Validated};

/// Directories with more skills than this announce their scan progress while it runs (every
/// scan announces `done == total` when every skill is listed, and again at its end, so the UI
/// reads the list as soon as it is complete and once more with the versions recorded).
const PROGRESS_FROM: usize = 200;

/// What a scan found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[ts(export)]
pub struct ScanReport {
    /// Skill folders in the skills directory.
    pub local: u32,
    /// Skills in the catalog.
    pub catalog: u32,
    /// Folders whose content was read in full (new or changed since the last scan).
    pub read: u32,
    /// Versions recorded by this scan.
    pub recorded: u32,
    /// Set when the skills directory could not be read.
    pub unavailable: Option<String>,
}

/// What the scan's first phase leaves for its second: the catalog it read and recorded, and the
/// report so far (with the reason when the skills directory could not be read).
#[derive(Debug)]
pub struct FirstListing {
    catalog: BTreeMap<String, Entry>,
    report: ScanReport,
}

/// A folder read in full: its package, validation and version-to-be (`None` when unreadable).
pub(super) struct FullRead {
    pub validated: Validated,
    pub content: Option<(Package, Content)>,
}

/// Opens a skill folder found in the skills directory or the catalog. The folder itself must not
/// be a link: discovery never follows one, and a folder swapped for one since must not be either.
pub(super) fn listed(dir: &Path) -> Result<SkillDir, FileError> {
    SkillDir::open(dir, Reach::Listed)
}

/// Reads and validates a folder completely.
pub(super) fn read_full(dir: &Path, policy: &skillcase_skill::policy::Policy) -> FullRead {
    match listed(dir).map_err(LoadError::from).and_then(package_from) {
        Ok(pkg) => {
            let validated = validate_package(&pkg, PROFILE, policy);
            let content = content_of(&pkg, &validated);
            FullRead { validated, content: Some((pkg, content)) }
        }
        Err(e) => FullRead { validated: Validated::failed(vec![e.to_finding()]), content: None },
    }
}

impl Library {
    /// Scans the catalog and the skills directory: lists every skill from its frontmatter first
    /// (in parallel; the listing is visible as soon as that pass ends, with `scan-progress` events
    /// for large directories and one at the end of every scan), then re-reads in full only the folders whose fingerprint (paths,
    /// sizes, times) differs from the last scan, recording a `watch` version for new content.
    /// An unreadable skills directory is reported (`skills-dir-status`), not an error: the
    /// catalog is still served, and the next scan recovers.
    pub fn scan(&self) -> Result<ScanReport, LibraryError> {
        let first = self.list_first()?;
        self.finish_scan(first)
    }

    /// The scan's first phase on its own: the catalog and every folder's frontmatter, listed at
    /// once. A window starting up shows its skills after this, while the watcher is still being
    /// armed (a walk of every folder that takes longer than this pass on a large library);
    /// [`Library::finish_scan`] then takes the folders afresh, so nothing made in between is lost.
    pub fn list_first(&self) -> Result<FirstListing, LibraryError> {
        let _writing = self.write_lock();
        super::folder::sweep_leftovers(&self.skills_dir);
        let catalog = self.scan_catalog()?;
        let report = ScanReport { catalog: catalog.len() as u32, ..ScanReport::default_zero() };
        match skill_folders(&self.skills_dir) {
            Ok(folders) => {
                self.list_quickly(&folders, &catalog);
                let total = folders.len() as u32;
                self.publish(DomainEvent::ScanProgress { done: total, total });
                Ok(FirstListing { catalog, report })
            }
            Err(e) => Ok(FirstListing {
                catalog: BTreeMap::new(),
                report: self.mark_unavailable(&e, catalog, report),
            }),
        }
    }

    /// The scan's second phase after [`Library::list_first`]: the folders listed again (one may
    /// have come or gone since), only those whose fingerprint differs from the last scan read in
    /// full, new content recorded as `watch` versions.
    pub fn finish_scan(&self, first: FirstListing) -> Result<ScanReport, LibraryError> {
        let FirstListing { catalog, mut report } = first;
        if report.unavailable.is_some() {
            return Ok(report);
        }
        let _writing = self.write_lock();
        let folders = match skill_folders(&self.skills_dir) {
            Ok(folders) => folders,
            Err(e) => return Ok(self.mark_unavailable(&e, catalog, report)),
        };
        report.local = folders.len() as u32;
        let local = self.reconcile(&folders, &catalog, &mut report)?;
        let (was_unavailable, note) = {
            let mut state = self.write_state();
            state.local = local;
            state.catalog = catalog;
            state.changed();
            (state.unavailable.take().is_some(), state.watch_note.clone())
        };
        if was_unavailable {
            self.publish(DomainEvent::SkillsDirStatus { available: true, message: note });
        }
        self.publish(DomainEvent::ScanProgress { done: report.local, total: report.local });
        Ok(report)
    }

    /// Phase one: the level-1 read of every folder, published at once.
    fn list_quickly(&self, folders: &[SkillFolder], catalog: &BTreeMap<String, Entry>) {
        let total = folders.len();
        let step = (total / 20).max(1);
        let progress = |done: usize| {
            if total >= PROGRESS_FROM && done % step == 0 && done < total {
                self.publish(DomainEvent::ScanProgress { done: done as u32, total: total as u32 });
            }
        };
        let rows = self.repo.skill_rows().unwrap_or_default();
        let entry = |f: &SkillFolder| match listed(&f.dir) {
            Ok(dir) => index_entry_from(&dir, PROFILE, &self.policy),
            Err(e) => Validated::failed(vec![e.to_finding()]),
        };
        let entries = parallel::map(folders, entry, progress);
        let mut state = self.write_state();
        state.local = folders
            .iter()
            .zip(entries)
            .map(|(f, validated)| {
                let row = rows.get(&f.name).filter(|r| r.origin == "local");
                let version = row.and_then(|r| r.live_version_id);
                let updated = row.map(|r| r.updated_at.clone()).unwrap_or_else(now);
                (f.name.clone(), Entry::new(&f.name, &f.dir, validated, version, updated))
            })
            .collect();
        state.catalog = catalog.clone();
        state.changed();
    }

    /// Phase two: full reads of changed folders, versions recorded, pointers updated.
    fn reconcile(
        &self,
        folders: &[SkillFolder],
        catalog: &BTreeMap<String, Entry>,
        report: &mut ScanReport,
    ) -> Result<BTreeMap<String, Entry>, LibraryError> {
        let (rows, validations) = (self.repo.skill_rows()?, self.repo.validations()?);
        let prints = parallel::map(folders, |f| fingerprint(&f.dir), |_| {});
        let state_now: BTreeMap<String, Entry> = self.read_state().local.clone();
        let mut local = BTreeMap::new();
        let mut stale = Vec::new();
        for (folder, print) in folders.iter().zip(&prints) {
            let row = rows.get(&folder.name).filter(|r| r.origin == "local");
            let known = row.and_then(|r| {
                let id = r.live_version_id?;
                let validation = validations.get(&id)?.clone();
                (print.is_some() && r.fingerprint == *print).then_some((id, validation))
            });
            match (known, state_now.get(&folder.name)) {
                (Some((id, validation)), Some(entry)) => {
                    let mut entry = entry.clone();
                    entry.version = Some(id);
                    entry.validity = validation.validity();
                    local.insert(folder.name.clone(), entry);
                }
                _ => stale.push((folder.clone(), print.clone())),
            }
        }
        let stale_folders: Vec<SkillFolder> = stale.iter().map(|(f, _)| f.clone()).collect();
        let reads = self.read_all_durably(&stale_folders)?;
        report.read = reads.len() as u32;
        let mut versions = Vec::new();
        let mut pointers = Vec::new();
        let mut fresh = Vec::new();
        for ((folder, print), read) in stale.into_iter().zip(reads) {
            let read = read?;
            let version = read.content.map(|(_, content)| {
                versions.push(new_version(&folder.name, content, Source::Watch, catalog));
                versions.len() - 1
            });
            pointers.push(Pointer::Local { name: folder.name.clone(), version, fingerprint: print });
            fresh.push((folder, read.validated, version));
        }
        let stale_names: std::collections::HashSet<&str> =
            fresh.iter().map(|(f, _, _)| f.name.as_str()).collect();
        for (name, row) in &rows {
            if row.origin == "local" && !local.contains_key(name) && !stale_names.contains(name.as_str()) {
                pointers.push(Pointer::Elsewhere {
                    name: name.clone(),
                    catalog_version: catalog_version(catalog, name),
                });
            }
        }
        for (name, entry) in catalog {
            if !local.contains_key(name) && !stale_names.contains(name.as_str()) {
                pointers.push(Pointer::Catalog { name: name.clone(), version: entry.version });
            }
        }
        let ids = self.repo.commit(versions, pointers)?;
        report.recorded += ids.iter().filter(|(_, new)| *new).count() as u32;
        let stamp = now();
        for (folder, validated, version) in fresh {
            let id = version.map(|i| ids[i].0);
            local.insert(
                folder.name.clone(),
                Entry::new(&folder.name, &folder.dir, validated, id, stamp.clone()),
            );
        }
        let updated = self.repo.skill_rows()?;
        for (name, entry) in local.iter_mut() {
            if let Some(row) = updated.get(name) {
                entry.updated_at = row.updated_at.clone();
            }
        }
        Ok(local)
    }

    /// Reads the catalog in full (it is small and read-only) and records its versions.
    fn scan_catalog(&self) -> Result<BTreeMap<String, Entry>, LibraryError> {
        let Some(dir) = &self.catalog_dir else {
            return Ok(BTreeMap::new());
        };
        let folders = skill_folders(dir).unwrap_or_default();
        let reads = self.read_all_durably(&folders)?;
        let mut versions = Vec::new();
        let mut read_back = Vec::new();
        for (folder, read) in folders.iter().zip(reads) {
            let read = read?;
            let version = read.content.map(|(_, content)| {
                versions.push(new_version(&folder.name, content, Source::Catalog, &BTreeMap::new()));
                versions.len() - 1
            });
            read_back.push((folder, read.validated, version));
        }
        let ids = self.repo.commit(versions, Vec::new())?;
        let stamp = now();
        let mut entries = BTreeMap::new();
        for (folder, validated, version) in read_back {
            let id = version.map(|i| ids[i].0);
            entries.insert(
                folder.name.clone(),
                Entry::new(&folder.name, &folder.dir, validated, id, stamp.clone()),
            );
        }
        Ok(entries)
    }

    /// Reads `folders` in parallel, storing their blobs without one fsync each, then makes every
    /// blob written durable with a single sync before any version naming them is recorded.
    fn read_all_durably(
        &self,
        folders: &[SkillFolder],
    ) -> Result<Vec<Result<FullRead, LibraryError>>, LibraryError> {
        let reads = parallel::map(folders, |f| self.read_and_store(&f.dir, false), |_| {});
        let written: Vec<String> = reads
            .iter()
            .filter_map(|r| r.as_ref().ok()?.content.as_ref())
            .flat_map(|(_, c)| c.manifest.iter().map(|m| m.sha256.clone()))
            .collect();
        self.blobs.sync_all(&written).map_err(LibraryError::io(self.blobs.root()))?;
        Ok(reads)
    }

    /// Reads a folder in full and stores its blobs (`durable` fsyncs each one).
    pub(super) fn read_and_store(&self, dir: &Path, durable: bool) -> Result<FullRead, LibraryError> {
        let read = read_full(dir, &self.policy);
        if let Some((pkg, _)) = &read.content {
            for file in &pkg.files {
                self.blobs
                    .put(&file.sha256, &file.bytes, durable)
                    .map_err(LibraryError::io(self.blobs.root()))?;
            }
        }
        Ok(read)
    }

    /// The skills directory cannot be read (`error`): the list keeps the catalog alone, the
    /// window is told once, and `report` says why.
    fn mark_unavailable(
        &self,
        error: &dyn std::fmt::Display,
        catalog: BTreeMap<String, Entry>,
        report: ScanReport,
    ) -> ScanReport {
        let reason = error.to_string();
        let newly = {
            let mut state = self.write_state();
            state.local.clear();
            state.catalog = catalog;
            state.changed();
            state.unavailable.replace(reason.clone()).is_none()
        };
        if newly {
            self.publish(DomainEvent::SkillsDirStatus { available: false, message: Some(reason.clone()) });
        }
        ScanReport { unavailable: Some(reason), ..report }
    }

    /// Re-reads one skill folder after a change the watcher saw (`source` is usually `watch`):
    /// re-validates it, records a version when its content is new, and publishes
    /// `skill-changed` — or, when the folder or its `SKILL.md` is gone, forgets it and publishes
    /// `skill-removed` (`skill-changed` when a catalog skill of that name comes back).
    pub fn sync_skill(&self, name: &str, source: Source) -> Result<(), LibraryError> {
        check_name(name)?;
        let _writing = self.write_lock();
        let dir = self.skills_dir.join(name);
        // The folder is opened (never through a link) rather than checked by path: what is read
        // below is what was found here.
        let is_skill = listed(&dir).is_ok_and(|folder| holds_skill_md(&folder));
        if !is_skill {
            return self.forget_local(name);
        }
        let read = self.read_and_store(&dir, true)?;
        let print = fingerprint(&dir);
        let before = self.read_state().local.get(name).map(|e| (e.version, e.validity));
        let version = self.commit_live(name, &read, source, print.as_deref())?;
        let entry = Entry::new(name, &dir, read.validated, version, now());
        let changed = before != Some((entry.version, entry.validity)) || version.is_none();
        self.install_entry(entry);
        if changed {
            self.publish(DomainEvent::SkillChanged { name: name.to_string() });
        }
        Ok(())
    }

    /// Records the folder's version (if it has content) and points `name` at it, in one transaction.
    pub(super) fn commit_live(
        &self,
        name: &str,
        read: &FullRead,
        source: Source,
        print: Option<&str>,
    ) -> Result<Option<i64>, LibraryError> {
        let catalog = self.read_state().catalog.clone();
        let versions: Vec<NewVersion> = read
            .content
            .iter()
            .map(|(_, content)| new_version(name, content.clone(), source, &catalog))
            .collect();
        let pointer = Pointer::Local {
            name: name.to_string(),
            version: (!versions.is_empty()).then_some(0),
            fingerprint: print.map(str::to_string),
        };
        let ids = self.repo.commit(versions, vec![pointer])?;
        Ok(ids.first().map(|(id, _)| *id))
    }

    /// Puts a local entry in the view, keeping the stored `updated_at`.
    pub(super) fn install_entry(&self, mut entry: Entry) {
        if let Ok(Some(row)) = self.repo.skill_row(&entry.name) {
            entry.updated_at = row.updated_at;
        }
        let mut state = self.write_state();
        state.local.insert(entry.name.clone(), entry);
        state.changed();
    }

    /// The local folder of `name` is gone: the catalog's skill comes back if there is one,
    /// otherwise the name leaves the library (its versions stay).
    pub(super) fn forget_local(&self, name: &str) -> Result<(), LibraryError> {
        let catalog = self.read_state().catalog.clone();
        let known = self.read_state().local.contains_key(name);
        let was_local = self.repo.forget_local(name, catalog_version(&catalog, name))?;
        if !was_local && !known {
            return Ok(());
        }
        let mut state = self.write_state();
        state.local.remove(name);
        state.changed();
        drop(state);
        if catalog.contains_key(name) {
            self.publish(DomainEvent::SkillChanged { name: name.to_string() });
        } else {
            self.publish(DomainEvent::SkillRemoved { name: name.to_string() });
        }
        Ok(())
    }
}

impl ScanReport {
    fn default_zero() -> Self {
        ScanReport { local: 0, catalog: 0, read: 0, recorded: 0, unavailable: None }
    }
}

/// `content` as a new version of `name` made by `source`: a local version that differs from the
/// catalog's skill of the same name is `forked_from` it.
fn new_version(
    name: &str,
    content: Content,
    source: Source,
    catalog: &BTreeMap<String, Entry>,
) -> NewVersion {
    let forked_from =
        if source == Source::Catalog { None } else { catalog.get(name).and_then(|e| e.version) };
    NewVersion { name: name.to_string(), content, source, forked_from }
}

/// Where a skill without a local folder points: the catalog's version when the catalog has it.
fn catalog_version(catalog: &BTreeMap<String, Entry>, name: &str) -> Option<Option<i64>> {
    catalog.get(name).map(|e| e.version)
}
