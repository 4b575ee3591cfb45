//! The `skills` CLI's folder hash (`computedHash` in `skills-lock.json`, `skillFolderHash` for a
//! non-GitHub source in `~/.agents/.skill-lock.json`), byte for byte: SHA-256 over every file,
//! in the order of JavaScript's `localeCompare` on the relative paths (ICU collation, not byte
//! order: `scripts/run.sh` before `SKILL.md`), each file's `/`-separated relative path (UTF-8)
//! then its raw bytes, nothing between; lowercase hex. Folders named `.git` or `node_modules`
//! and links are not part of it.

use std::cmp::Ordering;
use std::sync::LazyLock;

use icu_collator::options::CollatorOptions;
use icu_collator::{Collator, CollatorBorrowed};
use sha2::{Digest, Sha256};
use skillcase_skill::package::Package;

static COLLATOR: LazyLock<CollatorBorrowed<'static>> = LazyLock::new(|| {
    Collator::try_new(Default::default(), CollatorOptions::default()).expect("compiled root collation data")
});

/// Orders two relative paths as `a.localeCompare(b)` does in Node (ICU root collation,
/// tertiary strength); paths the collation calls equal fall back to code-point order so the
/// result never depends on the order files were listed in.
pub fn locale_order(a: &str, b: &str) -> Ordering {
    COLLATOR.compare(a, b).then_with(|| a.cmp(b))
}

/// The hash of `files` (relative path, content), in any order.
pub fn folder_hash<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> String {
    let mut files: Vec<(&str, &[u8])> = files.into_iter().filter(|(path, _)| counted(path)).collect();
    files.sort_by(|a, b| locale_order(a.0, b.0));
    let mut hash = Sha256::new();
    for (path, bytes) in files {
        hash.update(path.as_bytes());
        hash.update(bytes);
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The hash of a package's files (what an install copies).
pub fn package_hash(package: &Package) -> String {
    folder_hash(package.files.iter().map(|f| (f.path.as_str(), f.bytes.as_slice())))
}

/// Whether a file at `path` is part of the hash: not under a `.git` or `node_modules` folder.
fn counted(path: &str) -> bool {
    let mut folders = path.split('/').rev().skip(1);
    !folders.any(|part| part == ".git" || part == "node_modules")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKILL_MD: &[u8] = b"---\nname: demo-skill\ndescription: Demo.\n---\n\n# Demo\n";
    const RUN_SH: &[u8] = b"#!/bin/sh\necho hi\n";

    #[test]
    fn the_hash_of_the_skills_clis_test_folder_is_the_one_it_computes() {
        let hash = folder_hash([("SKILL.md", SKILL_MD), ("scripts/run.sh", RUN_SH)]);
        assert_eq!(hash, "e185d44ef65a7b5483359a7287c3cd2badfcc082ef8854ee28b0e37a6e47dcc7");
    }

    #[test]
    fn the_order_files_are_given_in_does_not_change_the_hash() {
        let one = folder_hash([("SKILL.md", SKILL_MD), ("scripts/run.sh", RUN_SH)]);
        let other = folder_hash([("scripts/run.sh", RUN_SH), ("SKILL.md", SKILL_MD)]);
        assert_eq!(one, other);
    }

    #[test]
    fn paths_sort_as_javascripts_locale_compare_not_by_bytes() {
        let mut paths = vec![
            "SKILL.md",
            "scripts/run.sh",
            "B.md",
            "b.md",
            "a-b",
            "a_b",
            "9.md",
            "10.md",
            "_x",
            "é.md",
            "f.md",
            "e.md",
        ];
        paths.sort_by(|a, b| locale_order(a, b));
        assert_eq!(
            paths,
            [
                "_x",
                "10.md",
                "9.md",
                "a_b",
                "a-b",
                "b.md",
                "B.md",
                "e.md",
                "é.md",
                "f.md",
                "scripts/run.sh",
                "SKILL.md"
            ]
        );
    }

    #[test]
    fn files_under_git_or_node_modules_are_left_out() {
        let plain = folder_hash([("SKILL.md", SKILL_MD)]);
        let with =
            folder_hash([("SKILL.md", SKILL_MD), (".git/HEAD", b"ref"), ("lib/node_modules/x.js", b"1")]);
        assert_eq!(plain, with);
        assert_ne!(plain, folder_hash([("SKILL.md", SKILL_MD), ("git/HEAD", b"ref")]));
    }
}
