//! The content-addressed blob store: every file of every version, named by its sha256, so any
//! version can be restored byte for byte. A blob is written to a temporary file in the store,
//! fsynced, then renamed to its name, so a blob that exists is always complete. Blobs are never
//! removed except by an explicit [`BlobStore::collect`].
//!
//! Blobs that arrive over time and count only together (a catalog pull's downloads) go through a
//! [`Staging`]: each is streamed to a file of a staging folder inside the store, hashed as it is
//! written, and the whole set is moved in at once by [`Staging::commit`] — or removed with the
//! folder when the staging is dropped. Nothing is held in memory.

use std::collections::HashSet;
use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use sha2::{Digest, Sha256};

use skillcase_common::durable::sync_dir;

/// Prefix of a blob being written (never a valid blob name).
const TEMP_PREFIX: &str = ".tmp-";
/// Prefix of a staging folder at the top of the store.
const STAGING_PREFIX: &str = ".staging-";
/// A staging folder untouched this long belongs to a process that died; collection removes it.
const STALE_STAGING: Duration = Duration::from_secs(24 * 60 * 60);

/// A folder of blobs: `<root>/<first two hex digits>/<sha256>`.
#[derive(Debug, Clone)]
pub struct BlobStore {
    root: PathBuf,
}

/// Lowercase hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

impl BlobStore {
    /// A store rooted at `root` (created on first write).
    pub fn new(root: PathBuf) -> Self {
        BlobStore { root }
    }

    /// The folder of the store.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn path_of(&self, sha256: &str) -> PathBuf {
        self.root.join(&sha256[..2.min(sha256.len())]).join(sha256)
    }

    /// True when the blob is stored.
    pub fn contains(&self, sha256: &str) -> bool {
        is_hash(sha256) && self.path_of(sha256).is_file()
    }

    /// Stores `bytes` under `sha256` (which the caller computed) unless already stored. With
    /// `durable`, the blob and its folder are fsynced before this returns.
    pub fn put(&self, sha256: &str, bytes: &[u8], durable: bool) -> std::io::Result<()> {
        if !is_hash(sha256) {
            return Err(std::io::Error::other(format!("`{sha256}` is not a sha256")));
        }
        let target = self.path_of(sha256);
        if target.is_file() {
            return Ok(());
        }
        let folder = target.parent().expect("a blob path has a folder");
        fs::create_dir_all(folder)?;
        let mut temp = tempfile::Builder::new().prefix(TEMP_PREFIX).tempfile_in(folder)?;
        temp.write_all(bytes)?;
        if durable {
            temp.as_file().sync_all()?;
        }
        temp.persist(&target).map_err(|e| e.error)?;
        if durable {
            sync_dir(folder)?;
        }
        Ok(())
    }

    /// Reads a blob back, checking its hash so a damaged store is noticed, never served.
    pub fn get(&self, sha256: &str) -> std::io::Result<Vec<u8>> {
        if !is_hash(sha256) {
            return Err(std::io::Error::new(std::io::ErrorKind::NotFound, "not a sha256"));
        }
        let bytes = fs::read(self.path_of(sha256))?;
        if sha256_hex(&bytes) != sha256 {
            return Err(std::io::Error::other(format!("blob {sha256} is damaged")));
        }
        Ok(bytes)
    }

    /// Makes every blob written without `durable` reach the disk. On Linux one `syncfs` flushes
    /// the store's file system at once (a scan may have written thousands of blobs, and one fsync
    /// each would dominate the scan); elsewhere each blob and its folder is fsynced.
    pub fn sync_all(&self, hashes: &[String]) -> std::io::Result<()> {
        if hashes.is_empty() {
            return Ok(());
        }
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            let root = fs::File::open(&self.root)?;
            rustix::fs::syncfs(&root).map_err(std::io::Error::from)
        }
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        {
            let mut folders = HashSet::new();
            for hash in hashes {
                let path = self.path_of(hash);
                fs::File::open(&path)?.sync_all()?;
                folders.insert(path.parent().map(Path::to_path_buf));
            }
            for folder in folders.into_iter().flatten() {
                sync_dir(&folder)?;
            }
            Ok(())
        }
    }

    /// A new staging folder for blobs that count only together (see the module).
    pub fn staging(&self) -> std::io::Result<Staging> {
        fs::create_dir_all(&self.root)?;
        let dir = tempfile::Builder::new().prefix(STAGING_PREFIX).tempdir_in(&self.root)?;
        Ok(Staging { dir, store: self.clone(), kept: Vec::new() })
    }

    /// Removes every blob not in `referenced` (and stale temporary files); returns how many
    /// were kept and removed and the bytes freed. A staging folder in use is left alone; one
    /// untouched for a day (its process died) is removed.
    pub fn collect(&self, referenced: &HashSet<String>) -> std::io::Result<(u32, u32, u64)> {
        let (mut kept, mut removed, mut freed) = (0, 0, 0);
        let Ok(folders) = fs::read_dir(&self.root) else {
            return Ok((0, 0, 0));
        };
        for folder in folders {
            let folder = folder?.path();
            if !folder.is_dir() {
                continue;
            }
            if folder.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(STAGING_PREFIX)) {
                remove_if_stale(&folder)?;
                continue;
            }
            for entry in fs::read_dir(&folder)? {
                let entry = entry?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if referenced.contains(&name) {
                    kept += 1;
                    continue;
                }
                freed += entry.metadata().map(|m| m.len()).unwrap_or(0);
                fs::remove_file(entry.path())?;
                removed += 1;
            }
        }
        Ok((kept, removed, freed))
    }
}

fn remove_if_stale(staging: &Path) -> std::io::Result<()> {
    let touched = fs::metadata(staging)?.modified()?;
    let age = SystemTime::now().duration_since(touched).unwrap_or_default();
    if age > STALE_STAGING {
        fs::remove_dir_all(staging)?;
    }
    Ok(())
}

/// Blobs received but not yet in the store (see the module). Dropped without
/// [`Staging::commit`], its folder and every file in it are removed.
#[derive(Debug)]
pub struct Staging {
    dir: tempfile::TempDir,
    store: BlobStore,
    /// The blobs finished and checked, in the order they arrived.
    kept: Vec<String>,
}

/// One blob being written to a staging folder: its bytes go straight to the file and into the
/// hash, never into memory.
#[derive(Debug)]
pub struct StagedBlob {
    file: BufWriter<fs::File>,
    path: PathBuf,
    name: String,
    hasher: Sha256,
    written: u64,
}

impl StagedBlob {
    /// Appends `bytes`.
    pub fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.file.write_all(bytes)?;
        self.hasher.update(bytes);
        self.written += bytes.len() as u64;
        Ok(())
    }

    /// How many bytes were written so far.
    pub fn written(&self) -> u64 {
        self.written
    }
}

impl Staging {
    /// Starts the blob expected to hash to `sha256`.
    pub fn start(&self, sha256: &str) -> std::io::Result<StagedBlob> {
        if !is_hash(sha256) {
            return Err(std::io::Error::other(format!("`{sha256}` is not a sha256")));
        }
        let path = self.dir.path().join(sha256);
        let file = fs::OpenOptions::new().write(true).create_new(true).open(&path)?;
        Ok(StagedBlob {
            file: BufWriter::new(file),
            path,
            name: sha256.to_string(),
            hasher: Sha256::new(),
            written: 0,
        })
    }

    /// Ends `blob` and returns the sha256 of what was written. The blob is kept for the commit
    /// only when that is the hash it was started with; otherwise its file is removed at once.
    pub fn finish(&mut self, blob: StagedBlob) -> std::io::Result<String> {
        let StagedBlob { file, path, name, hasher, .. } = blob;
        let flushed = file.into_inner().map_err(|e| e.into_error()).map(drop);
        let actual = format!("{:x}", hasher.finalize());
        if flushed.is_err() || actual != name {
            let _ = fs::remove_file(&path);
            return flushed.map(|()| actual);
        }
        self.kept.push(name);
        Ok(actual)
    }

    /// The blobs finished and kept so far.
    pub fn kept(&self) -> &[String] {
        &self.kept
    }

    /// Moves every kept blob into the store: their bytes reach the disk first, then each is
    /// renamed to its place (one already stored is left as it is) and the names reach the disk
    /// too. Returns the blobs moved in.
    pub fn commit(self) -> std::io::Result<Vec<String>> {
        if self.kept.is_empty() {
            return Ok(Vec::new());
        }
        self.sync_staged()?;
        for name in &self.kept {
            let target = self.store.path_of(name);
            if target.is_file() {
                continue;
            }
            fs::create_dir_all(target.parent().expect("a blob path has a folder"))?;
            fs::rename(self.dir.path().join(name), &target)?;
        }
        self.store.sync_all(&self.kept)?;
        Ok(self.kept.clone())
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn sync_staged(&self) -> std::io::Result<()> {
        let dir = fs::File::open(self.dir.path())?;
        rustix::fs::syncfs(&dir).map_err(std::io::Error::from)
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    fn sync_staged(&self) -> std::io::Result<()> {
        for name in &self.kept {
            fs::File::open(self.dir.path().join(name))?.sync_all()?;
        }
        Ok(())
    }
}

fn is_hash(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blob_is_stored_under_its_hash_and_read_back_exactly() {
        let tmp = tempfile::tempdir().unwrap();
        let store = BlobStore::new(tmp.path().join("blobs"));
        let bytes = b"# Frete\n\xff\x00binary".to_vec();
        let hash = sha256_hex(&bytes);
        store.put(&hash, &bytes, true).unwrap();
        assert!(tmp.path().join("blobs").join(&hash[..2]).join(&hash).is_file());
        assert_eq!(store.get(&hash).unwrap(), bytes);
    }

    #[test]
    fn a_damaged_blob_is_refused_on_read() {
        let tmp = tempfile::tempdir().unwrap();
        let store = BlobStore::new(tmp.path().to_path_buf());
        let hash = sha256_hex(b"original");
        store.put(&hash, b"original", false).unwrap();
        fs::write(store.path_of(&hash), b"tampered").unwrap();
        assert!(store.get(&hash).unwrap_err().to_string().contains("damaged"));
    }

    #[test]
    fn staged_blobs_enter_the_store_only_on_commit() {
        let tmp = tempfile::tempdir().unwrap();
        let store = BlobStore::new(tmp.path().join("blobs"));
        let hash = sha256_hex(b"chunked bytes");
        let mut staging = store.staging().unwrap();
        let mut blob = staging.start(&hash).unwrap();
        blob.write(b"chunked ").unwrap();
        blob.write(b"bytes").unwrap();
        assert_eq!(blob.written(), 13);
        assert_eq!(staging.finish(blob).unwrap(), hash);
        assert!(!store.contains(&hash), "not in the store before the commit");
        assert_eq!(staging.commit().unwrap(), vec![hash.clone()]);
        assert_eq!(store.get(&hash).unwrap(), b"chunked bytes");
        let left: Vec<_> = fs::read_dir(store.root()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, vec![std::ffi::OsString::from(&hash[..2])], "the staging folder is gone");
    }

    #[test]
    fn a_staged_blob_that_hashes_to_another_name_is_dropped_and_a_dropped_staging_leaves_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let store = BlobStore::new(tmp.path().to_path_buf());
        let (good, claimed) = (sha256_hex(b"good"), sha256_hex(b"claimed"));
        let mut staging = store.staging().unwrap();
        let mut blob = staging.start(&claimed).unwrap();
        blob.write(b"other").unwrap();
        assert_eq!(staging.finish(blob).unwrap(), sha256_hex(b"other"));
        let mut blob = staging.start(&good).unwrap();
        blob.write(b"good").unwrap();
        staging.finish(blob).unwrap();
        assert_eq!(staging.kept(), std::slice::from_ref(&good));
        drop(staging);
        assert!(!store.contains(&good));
        assert_eq!(fs::read_dir(store.root()).unwrap().count(), 0, "nothing of the staging is left");
    }

    #[test]
    fn collection_leaves_a_staging_in_use_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let store = BlobStore::new(tmp.path().to_path_buf());
        let hash = sha256_hex(b"arriving");
        let mut staging = store.staging().unwrap();
        let mut blob = staging.start(&hash).unwrap();
        blob.write(b"arriving").unwrap();
        staging.finish(blob).unwrap();
        assert_eq!(store.collect(&HashSet::new()).unwrap(), (0, 0, 0));
        staging.commit().unwrap();
        assert!(store.contains(&hash));
    }

    #[test]
    fn collection_removes_only_unreferenced_blobs() {
        let tmp = tempfile::tempdir().unwrap();
        let store = BlobStore::new(tmp.path().to_path_buf());
        let (keep, drop) = (sha256_hex(b"keep"), sha256_hex(b"drop"));
        store.put(&keep, b"keep", false).unwrap();
        store.put(&drop, b"drop", false).unwrap();
        let report = store.collect(&HashSet::from([keep.clone()])).unwrap();
        assert_eq!(report, (1, 1, 4));
        assert!(store.contains(&keep) && !store.contains(&drop));
    }
}
