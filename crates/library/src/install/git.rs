//! Git sources (`git+URL[#branch|@commit]`), through the system `git`, so a person's own git
//! credentials (SSH keys, credential helpers) reach private repositories with nothing to set up.
//! Each repository is kept as a bare mirror under the data directory (`git/<digest>.git`),
//! fetched when a source is installed or updated; a pinned commit is read from the mirror
//! without the network whenever the mirror has it. `GIT_TERMINAL_PROMPT=0`: a missing credential
//! fails with git's message instead of waiting on a prompt nobody sees.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use super::error::InstallError;

/// What a `git+…` source names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitSpec {
    /// The repository URL git is given (`https://…`, `ssh://…`, `git://…`, `file://…`, a path).
    pub url: String,
    /// A branch or tag to follow (`#main`); `None` for the repository's default branch.
    pub reference: Option<String>,
    /// A commit to pin (`@3f2a…`, 7 to 40 hex digits).
    pub commit: Option<String>,
}

/// Reads `git+URL`, `git+URL#REF` or `git+URL@COMMIT`; `None` when `text` is not a git source.
/// An `@` is a commit only when hex digits (7 to 40) follow it to the end, so `ssh://git@host/…`
/// stays a URL.
pub fn parse_spec(text: &str) -> Option<Result<GitSpec, InstallError>> {
    let rest = text.strip_prefix("git+")?;
    let invalid =
        |reason: &str| InstallError::GitSource { spec: text.to_string(), reason: reason.to_string() };
    let (rest, reference) = match rest.split_once('#') {
        Some((url, r)) if !r.is_empty() && !r.starts_with('-') => (url, Some(r.to_string())),
        Some(_) => return Some(Err(invalid("the part after # must name a branch or tag"))),
        None => (rest, None),
    };
    let (url, commit) = match rest.rsplit_once('@') {
        Some((url, c)) if (7..=40).contains(&c.len()) && c.bytes().all(|b| b.is_ascii_hexdigit()) => {
            (url, Some(c.to_ascii_lowercase()))
        }
        _ => (rest, None),
    };
    if url.is_empty() || url.starts_with('-') || url.contains('\0') {
        return Some(Err(invalid("it names no repository")));
    }
    if reference.is_some() && commit.is_some() {
        return Some(Err(invalid("name a branch (#) or a commit (@), not both")));
    }
    Some(Ok(GitSpec { url: url.to_string(), reference, commit }))
}

/// The bare mirrors of git sources, under one folder of the data directory.
#[derive(Debug, Clone)]
pub struct GitCache {
    root: PathBuf,
}

impl GitCache {
    /// The mirrors kept under `root` (`<data dir>/git`).
    pub fn new(root: PathBuf) -> GitCache {
        GitCache { root }
    }

    fn mirror(&self, url: &str) -> PathBuf {
        let digest: String =
            Sha256::digest(url.as_bytes()).iter().take(8).map(|b| format!("{b:02x}")).collect();
        self.root.join(format!("{digest}.git"))
    }

    /// Brings the mirror of `url` up to date with its branches and tags (cloned the first time).
    pub fn fetch(&self, url: &str) -> Result<(), InstallError> {
        let mirror = self.mirror(url);
        if mirror.join("HEAD").is_file() {
            let refs = ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"];
            return run(
                url,
                Command::new("git")
                    .arg("--git-dir")
                    .arg(&mirror)
                    .args(["fetch", "--quiet", "--prune", "--", url])
                    .args(refs),
            );
        }
        std::fs::create_dir_all(&self.root).map_err(InstallError::io(&self.root))?;
        let _ = std::fs::remove_dir_all(&mirror);
        run(url, Command::new("git").args(["clone", "--bare", "--quiet", "--", url]).arg(&mirror))
    }

    /// The commit `reference` (a branch, a tag, a commit or its prefix; the default branch when
    /// `None`) names in the mirror of `url`.
    pub fn resolve(&self, url: &str, reference: Option<&str>) -> Result<String, InstallError> {
        let wanted = format!("{}^{{commit}}", reference.unwrap_or("HEAD"));
        let out = output(
            url,
            Command::new("git").arg("--git-dir").arg(self.mirror(url)).args([
                "rev-parse",
                "--verify",
                "--quiet",
                "--end-of-options",
                &wanted,
            ]),
        )
        .map_err(|_| InstallError::Git {
            url: url.to_string(),
            reason: format!("{} is not a branch, tag or commit of it", reference.unwrap_or("HEAD")),
        })?;
        Ok(out.trim().to_string())
    }

    /// Whether the mirror of `url` holds `commit` (read without the network).
    pub fn has(&self, url: &str, commit: &str) -> bool {
        self.resolve(url, Some(commit)).is_ok_and(|found| found == commit)
    }

    /// The files of `commit` checked out into the new folder `into` (a local clone of the mirror).
    pub fn checkout(&self, url: &str, commit: &str, into: &Path) -> Result<(), InstallError> {
        run(
            url,
            Command::new("git")
                .args(["clone", "--quiet", "--no-checkout", "--"])
                .arg(self.mirror(url))
                .arg(into),
        )?;
        run(url, Command::new("git").arg("-C").arg(into).args(["checkout", "--quiet", "--detach", commit]))
    }
}

/// A git source's files at the commit it names now, in a temporary folder removed when this is
/// dropped.
#[derive(Debug)]
pub struct Checkout {
    pub spec: GitSpec,
    /// The commit the source resolved to (40 hex digits).
    pub commit: String,
    dir: tempfile::TempDir,
}

impl Checkout {
    /// The repository's files.
    pub fn root(&self) -> PathBuf {
        self.dir.path().join("repo")
    }
}

impl GitCache {
    /// Reads the git source `text` (`git_source_invalid` when it is not one), fetches its mirror,
    /// resolves the branch, commit or default branch it names and checks that commit out.
    pub fn checkout_spec(&self, text: &str) -> Result<Checkout, InstallError> {
        let not_git = || InstallError::GitSource {
            spec: text.to_string(),
            reason: "it does not start with git+".into(),
        };
        let spec = parse_spec(text).ok_or_else(not_git)??;
        self.fetch(&spec.url)?;
        let commit = self.resolve(&spec.url, spec.commit.as_deref().or(spec.reference.as_deref()))?;
        let dir = tempfile::tempdir().map_err(InstallError::io(&std::env::temp_dir()))?;
        let checkout = Checkout { spec, commit, dir };
        self.checkout(&checkout.spec.url, &checkout.commit, &checkout.root())?;
        Ok(checkout)
    }
}

/// The skill folders of a checkout: every folder holding a `SKILL.md`, by path relative to it
/// (`""` for the root), `.git` left out, at most four folders deep; sorted.
pub fn skill_folders(checkout: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, depth: u32, out: &mut Vec<String>) {
        if dir.join("SKILL.md").is_file() {
            let rel = dir.strip_prefix(root).unwrap_or(dir).to_string_lossy().replace('\\', "/");
            out.push(rel);
            return;
        }
        if depth == 4 {
            return;
        }
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir && name != ".git" && name != "node_modules" {
                walk(root, &entry.path(), depth + 1, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(checkout, checkout, 0, &mut out);
    out.sort();
    out
}

fn git_env(command: &mut Command) -> &mut Command {
    command.env("GIT_TERMINAL_PROMPT", "0").env("LC_ALL", "C")
}

fn output(url: &str, command: &mut Command) -> Result<String, InstallError> {
    let out = git_env(command).output().map_err(|e| InstallError::Git {
        url: url.to_string(),
        reason: format!("git could not be run ({e}); install git"),
    })?;
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    Err(InstallError::Git {
        url: url.to_string(),
        reason: stderr.trim().lines().last().unwrap_or("git failed").to_string(),
    })
}

fn run(url: &str, command: &mut Command) -> Result<(), InstallError> {
    output(url, command).map(|_| ())
}

#[cfg(test)]
#[path = "git_tests.rs"]
mod tests;

/// How one file differs between the pinned commit's copy and a newer one.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[ts(export)]
pub struct PinChange {
    pub path: String,
    pub change: crate::types::FileChange,
    /// The unified diff when both sides are text (`None` for a binary file).
    pub patch: Option<String>,
}

/// Every file that differs between `old` and `new`, by path.
pub fn package_diff(
    old: &skillcase_skill::package::Package,
    new: &skillcase_skill::package::Package,
) -> Vec<PinChange> {
    use crate::types::FileChange;
    let mut paths: Vec<&str> = old.files.iter().chain(&new.files).map(|f| f.path.as_str()).collect();
    paths.sort();
    paths.dedup();
    paths
        .into_iter()
        .filter_map(|path| {
            let (a, b) = (old.file(path), new.file(path));
            let change = match (a, b) {
                (Some(a), Some(b)) if a.bytes == b.bytes => return None,
                (Some(_), Some(_)) => FileChange::Modified,
                (None, _) => FileChange::Added,
                (_, None) => FileChange::Removed,
            };
            let patch = match (text_of(a), text_of(b)) {
                (Some(a), Some(b)) => Some(crate::diff::unified(path, a, b)),
                _ => None,
            };
            Some(PinChange { path: path.to_string(), change, patch })
        })
        .collect()
}

/// A file's text (`""` when absent), `None` when it is not UTF-8.
fn text_of(file: Option<&skillcase_skill::package::PackageFile>) -> Option<&str> {
    match file {
        None => Some(""),
        Some(f) => std::str::from_utf8(&f.bytes).ok(),
    }
}
