//! Git catalogs (`git+URL[#branch]`): a pull fetches the repository's mirror (the same mirrors
//! git-sourced installs use, through the system `git` and the person's own credentials), lists
//! every skill folder at the branch's newest commit, and hands the files whose bytes the blob
//! store lacks to the same incremental recording an index or MCP pull goes through.

use std::collections::HashMap;

use skillcase_common::ErrorBody;
use skillcase_library::install::git::{skill_folders, GitCache};
use skillcase_library::install::InstallError;
use skillcase_library::remote::{Downloads, Upstream, UpstreamFile};
use skillcase_skill::load::package_from_dir;
use skillcase_skill::policy::Policy;
use skillcase_skill::validate::{validate_package, Profile};

use crate::App;

/// The bytes of every listed file, by skill name and path.
type Files = HashMap<(String, String), Vec<u8>>;

impl App {
    /// Lists the git catalog `spec` and stages the files the blob store lacks.
    pub(super) async fn fetch_git_catalog(
        &self,
        spec: &str,
    ) -> Result<(Vec<Upstream>, Downloads), ErrorBody> {
        let cache = self.git_cache();
        let text = spec.to_string();
        let (upstream, mut files) = self.blocking(move |_| Ok(list(&cache, &text)?)).await?;
        let listed = upstream.clone();
        let at = spec.to_string();
        let (wanted, mut downloads) =
            self.on_library(move |lib| Ok((lib.files_to_fetch(&at, &listed)?, lib.downloads(&at)?))).await?;
        for file in &wanted {
            let bytes = files.remove(&(file.skill.clone(), file.path.clone())).unwrap_or_default();
            let mut download = downloads.start(file)?;
            download.write(&bytes)?;
            downloads.finish(download)?;
        }
        Ok((upstream, downloads))
    }
}

/// Every skill folder of the repository at the commit `spec` names now whose `SKILL.md` gives a
/// name and a description, labelled with the commit (its first 12 digits) as the upstream version.
fn list(cache: &GitCache, spec: &str) -> Result<(Vec<Upstream>, Files), InstallError> {
    let checkout = cache.checkout_spec(spec)?;
    let (root, commit) = (checkout.root(), &checkout.commit);
    let mut upstream = Vec::new();
    let mut files = Files::new();
    for folder in skill_folders(&root) {
        let Ok(package) = package_from_dir(&root.join(&folder)) else { continue };
        let validated = validate_package(&package, Profile::Standard, &Policy::default());
        let Some(skill) = validated.skill else { continue };
        let listed = package
            .files
            .iter()
            .map(|f| UpstreamFile { path: f.path.clone(), sha256: f.sha256.clone(), size: f.size })
            .collect();
        for file in package.files {
            files.insert((skill.name.clone(), file.path), file.bytes);
        }
        upstream.push(Upstream {
            name: skill.name,
            version: Some(commit[..12].to_string()),
            description: skill.description,
            files: listed,
            revoked: false,
        });
    }
    Ok((upstream, files))
}
