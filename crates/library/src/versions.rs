//! What a version is made of, computed from a package: its manifest, its content hash and the
//! parsed metadata stored beside it. The content hash decides identity: the same files (paths and
//! bytes) always give the same hash, so the same content never makes two versions.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::types::{ManifestEntry, Validity};
use skillcase_skill::files::kind_of;
use skillcase_skill::finding::Finding;
use skillcase_skill::package::Package;
use skillcase_skill::validate::Validated;

/// A package's version-to-be: everything the `skill_versions` row stores.
#[derive(Debug, Clone, PartialEq)]
pub struct Content {
    pub hash: String,
    pub manifest: Vec<ManifestEntry>,
    pub frontmatter: Option<serde_json::Value>,
    pub config: Option<serde_json::Value>,
    pub validation: StoredValidation,
}

/// The validation result as stored with a version.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct StoredValidation {
    pub errors: u32,
    pub warnings: u32,
    pub findings: Vec<Finding>,
}

impl StoredValidation {
    /// The counts.
    pub fn validity(&self) -> Validity {
        Validity { errors: self.errors, warnings: self.warnings }
    }
}

/// The manifest of a package: one entry per file, sorted by path.
pub fn manifest_of(pkg: &Package) -> Vec<ManifestEntry> {
    let mut manifest: Vec<ManifestEntry> = pkg
        .files
        .iter()
        .map(|f| ManifestEntry {
            path: f.path.clone(),
            size: f.bytes.len() as u64,
            sha256: f.sha256.clone(),
            kind: kind_of(&f.path),
        })
        .collect();
    manifest.sort_by(|a, b| a.path.cmp(&b.path));
    manifest
}

/// The content hash of a manifest: sha256 over `path NUL sha256 LF` for each file in path order.
pub fn content_hash(manifest: &[ManifestEntry]) -> String {
    let mut hasher = Sha256::new();
    for entry in manifest {
        hasher.update(entry.path.as_bytes());
        hasher.update([0]);
        hasher.update(entry.sha256.as_bytes());
        hasher.update([b'\n']);
    }
    format!("{:x}", hasher.finalize())
}

/// The version-to-be of a validated package.
pub fn content_of(pkg: &Package, validated: &Validated) -> Content {
    let manifest = manifest_of(pkg);
    let validity = Validity::of(&validated.findings);
    let (frontmatter, config) = match &validated.skill {
        Some(skill) => (
            Some(serde_json::json!({
                "name": skill.name,
                "description": skill.description,
                "license": skill.license,
                "compatibility": skill.compatibility,
                "metadata": skill.metadata,
                "allowed-tools": skill.allowed_tools,
            })),
            serde_json::to_value(&skill.config).ok(),
        ),
        None => (None, None),
    };
    Content {
        hash: content_hash(&manifest),
        manifest,
        frontmatter,
        config,
        validation: StoredValidation {
            errors: validity.errors,
            warnings: validity.warnings,
            findings: validated.findings.clone(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillcase_skill::package::PackageFile;

    fn pkg(files: &[(&str, &str)]) -> Package {
        Package {
            folder_name: None,
            files: files.iter().map(|(p, t)| PackageFile::new(*p, t.as_bytes().to_vec(), None)).collect(),
        }
    }

    #[test]
    fn the_same_files_give_the_same_hash_whatever_their_order() {
        let a = pkg(&[("SKILL.md", "x"), ("references/a.md", "a")]);
        let b = pkg(&[("references/a.md", "a"), ("SKILL.md", "x")]);
        assert_eq!(content_hash(&manifest_of(&a)), content_hash(&manifest_of(&b)));
    }

    #[test]
    fn a_renamed_or_changed_file_changes_the_hash() {
        let base = content_hash(&manifest_of(&pkg(&[("SKILL.md", "x"), ("references/a.md", "a")])));
        let renamed = content_hash(&manifest_of(&pkg(&[("SKILL.md", "x"), ("references/b.md", "a")])));
        let changed = content_hash(&manifest_of(&pkg(&[("SKILL.md", "x"), ("references/a.md", "b")])));
        assert_ne!(base, renamed);
        assert_ne!(base, changed);
    }
}
