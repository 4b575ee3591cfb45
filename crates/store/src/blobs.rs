//! The content-addressed blob store: every file of every version, named by its sha256, so any
//! version can be restored byte for byte. A blob is written to a temporary file in the store,
//! fsynced, then renamed to its name, so a blob that exists is always complete. Blobs are never
//! removed except by an explicit [`BlobStore::collect`].

use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use skillcase_common::durable::sync_dir;

/// Prefix of a blob being written (never a valid blob name, so collection skips it).
const TEMP_PREFIX: &str = ".tmp-";

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

    /// Removes every blob not in `referenced` (and stale temporary files); returns how many
    /// were kept and removed and the bytes freed.
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
