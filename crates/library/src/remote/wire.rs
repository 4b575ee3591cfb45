//! What a catalog says, whatever its kind: the skills it offers ([`Upstream`]), each with its
//! files' paths, sizes and sha256 — parsed from a static JSON index here (docs/catalogs.md), or
//! built by the MCP client from `skills/list` — and the checks every such list passes before
//! anything is downloaded (plain names, safe relative paths, real digests, the import limits).

use std::collections::HashSet;

use serde::Deserialize;
use url::Url;

use super::error::RemoteError;
use crate::is_plain_name;
use skillcase_skill::policy::ImportLimits;

/// The largest index document read (8 MiB).
pub const MAX_INDEX_BYTES: usize = 8 * 1024 * 1024;
/// The most skills one catalog may list; an MCP catalog's listing stops at the page that goes
/// over it.
pub const MAX_SKILLS: usize = 10_000;
/// The most `skills/list` pages read from an MCP catalog (a cursor that never ends is cut here).
pub const MAX_PAGES: usize = 1_000;
/// The largest `skills/list` answer read (8 MiB, like a whole index); reading stops at this
/// byte, the rest of the answer is never read.
pub const MAX_PAGE_BYTES: usize = MAX_INDEX_BYTES;
/// The most bytes of `skills/list` answers read in all for one listing (32 MiB: an MCP entry
/// carries each skill's frontmatter besides what an index says).
pub const MAX_LIST_BYTES: usize = 4 * MAX_INDEX_BYTES;
/// The longest version label kept.
const MAX_VERSION_CHARS: usize = 128;

/// One skill a catalog offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upstream {
    pub name: String,
    /// The catalog's own version label (`"1.4.0"`), when it gives one.
    pub version: Option<String>,
    pub description: String,
    pub files: Vec<UpstreamFile>,
    /// True when the catalog marks the skill withdrawn: treated like a removal.
    pub revoked: bool,
}

/// One file of an upstream skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpstreamFile {
    pub path: String,
    /// Lowercase hex.
    pub sha256: String,
    pub size: u64,
}

/// Checks a catalog URL: absolute `http` or `https` with a host, no user name or password, no
/// fragment. Returns it parsed.
pub fn catalog_url(raw: &str) -> Result<Url, RemoteError> {
    let bad = |reason: &str| RemoteError::BadUrl { url: raw.to_string(), reason: reason.to_string() };
    let url = Url::parse(raw.trim()).map_err(|e| bad(&e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(bad("only http and https catalogs are supported"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(bad("the URL has no host"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad("a catalog URL cannot carry a user name or password; give a token instead"));
    }
    if url.fragment().is_some() {
        return Err(bad("a catalog URL cannot have a #fragment"));
    }
    Ok(url)
}

/// Where a static index's file lives: `<folder of the index>/<skill>/<path>`, each segment
/// percent-encoded (`https://skills.example/cat/index.json` →
/// `https://skills.example/cat/frete/references/tabela.md`).
pub fn file_url(index: &Url, skill: &str, path: &str) -> Url {
    let mut url = index.clone();
    url.set_query(None);
    if let Ok(mut segments) = url.path_segments_mut() {
        segments.pop();
        segments.push(skill);
        for segment in path.split('/') {
            segments.push(segment);
        }
    }
    url
}

#[derive(Debug, Deserialize)]
struct IndexDoc {
    skills: Vec<IndexSkill>,
}

/// What recognising an index needs: a `skills` list, its entries skipped unread into memory.
#[derive(Debug, Deserialize)]
struct IndexShape {
    #[serde(rename = "skills")]
    _skills: Vec<serde::de::IgnoredAny>,
}

#[derive(Debug, Deserialize)]
struct IndexSkill {
    name: String,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    description: String,
    #[serde(default)]
    files: Vec<IndexFile>,
    #[serde(default)]
    revoked: bool,
}

#[derive(Debug, Deserialize)]
struct IndexFile {
    path: String,
    sha256: String,
    size: u64,
}

/// True when `bytes` look like a skills index (a JSON object with a `skills` list): how a
/// catalog of unknown kind is recognised.
pub fn looks_like_index(bytes: &[u8]) -> bool {
    serde_json::from_slice::<IndexShape>(bytes).is_ok()
}

/// Parses and checks a static index document fetched from `url`.
pub fn parse_index(url: &str, bytes: &[u8], limits: &ImportLimits) -> Result<Vec<Upstream>, RemoteError> {
    if bytes.len() > MAX_INDEX_BYTES {
        return Err(RemoteError::TooLarge {
            url: url.to_string(),
            reason: format!("the index is over {} MiB", MAX_INDEX_BYTES / 1024 / 1024),
        });
    }
    let doc: IndexDoc = serde_json::from_slice(bytes).map_err(|e| RemoteError::BadIndex {
        url: url.to_string(),
        skill: None,
        path: None,
        reason: format!("not a skills index: {e}"),
    })?;
    let skills = doc
        .skills
        .into_iter()
        .map(|s| Upstream {
            name: s.name,
            version: s.version,
            description: s.description,
            files: s
                .files
                .into_iter()
                .map(|f| UpstreamFile { path: f.path, sha256: f.sha256.to_ascii_lowercase(), size: f.size })
                .collect(),
            revoked: s.revoked,
        })
        .collect();
    check(url, skills, limits)
}

/// The checks every catalog's list passes, whatever its kind: at most [`MAX_SKILLS`] skills with
/// plain, distinct names; each (unless revoked) with a `SKILL.md`, distinct safe relative paths,
/// 64-hex-digit sha256 values, and the import's limits on file count and sizes.
pub fn check(
    url: &str,
    mut skills: Vec<Upstream>,
    limits: &ImportLimits,
) -> Result<Vec<Upstream>, RemoteError> {
    let bad = |skill: Option<&str>, path: Option<&str>, reason: String| RemoteError::BadIndex {
        url: url.to_string(),
        skill: skill.map(str::to_string),
        path: path.map(str::to_string),
        reason,
    };
    let too_large = |reason: String| RemoteError::TooLarge { url: url.to_string(), reason };
    if skills.len() > MAX_SKILLS {
        return Err(too_large(format!("{} skills listed, at most {MAX_SKILLS}", skills.len())));
    }
    let mut names = HashSet::new();
    for skill in &mut skills {
        let name = skill.name.as_str();
        if !is_plain_name(name) {
            return Err(bad(
                Some(name),
                None,
                format!("`{name}` is not a skill name (one plain folder name)"),
            ));
        }
        if !names.insert(name.to_string()) {
            return Err(bad(Some(name), None, format!("the skill `{name}` is listed twice")));
        }
        if skill.version.as_ref().is_some_and(|v| v.chars().count() > MAX_VERSION_CHARS) {
            return Err(bad(Some(name), None, format!("the version is over {MAX_VERSION_CHARS} characters")));
        }
        if skill.revoked {
            continue;
        }
        if skill.files.len() > limits.max_files as usize {
            return Err(too_large(format!(
                "skill `{name}` has {} files, at most {}",
                skill.files.len(),
                limits.max_files
            )));
        }
        let mut paths = HashSet::new();
        let mut total = 0u64;
        for file in &skill.files {
            let path = file.path.as_str();
            if let Some(reason) = unsafe_path(path) {
                return Err(bad(Some(name), Some(path), reason));
            }
            if !paths.insert(path) {
                return Err(bad(Some(name), Some(path), format!("`{path}` is listed twice")));
            }
            if !is_sha256(&file.sha256) {
                return Err(bad(Some(name), Some(path), "sha256 is not 64 hex digits".into()));
            }
            if file.size > limits.max_file_bytes {
                return Err(too_large(format!(
                    "`{path}` of `{name}` is {} bytes, at most {}",
                    file.size, limits.max_file_bytes
                )));
            }
            total = total.saturating_add(file.size);
        }
        if total > limits.max_total_bytes {
            return Err(too_large(format!(
                "skill `{name}` is {total} bytes in all, at most {}",
                limits.max_total_bytes
            )));
        }
        if !paths.contains("SKILL.md") {
            return Err(bad(Some(name), None, "the skill has no SKILL.md".into()));
        }
        skill.files.sort_by(|a, b| a.path.cmp(&b.path));
    }
    skills.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(skills)
}

/// Why `path` cannot be a file of a skill folder, if it cannot.
fn unsafe_path(path: &str) -> Option<String> {
    if path.is_empty() {
        return Some("a file has an empty path".into());
    }
    if path.starts_with('/') || path.contains('\\') || path.contains('\0') || path.contains(':') {
        return Some(format!("`{path}` is not a relative path with `/` separators"));
    }
    if path.split('/').any(|s| s.is_empty() || s == "." || s == "..") {
        return Some(format!("`{path}` has an empty, `.` or `..` segment"));
    }
    None
}

/// 64 lowercase hex digits.
pub fn is_sha256(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHA: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    fn index(files: &str) -> String {
        format!(r#"{{"skills":[{{"name":"frete","version":"1.0","description":"d","files":[{files}]}}]}}"#)
    }

    fn parsed(text: &str) -> Result<Vec<Upstream>, RemoteError> {
        parse_index("http://127.0.0.1/index.json", text.as_bytes(), &ImportLimits::default())
    }

    fn code(result: Result<Vec<Upstream>, RemoteError>) -> &'static str {
        use skillcase_common::error::Coded;
        result.unwrap_err().code()
    }

    #[test]
    fn an_index_with_a_skill_md_parses_with_its_files_sorted() {
        let text = index(&format!(
            r#"{{"path":"references/a.md","sha256":"{SHA}","size":0}},{{"path":"SKILL.md","sha256":"{}","size":0}}"#,
            SHA.to_uppercase()
        ));
        let skills = parsed(&text).unwrap();
        let paths: Vec<&str> = skills[0].files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["SKILL.md", "references/a.md"]);
        assert_eq!(skills[0].files[0].sha256, SHA, "digests are kept lowercase");
    }

    #[test]
    fn a_path_that_climbs_out_of_the_skill_is_catalog_index_invalid() {
        let text = index(&format!(
            r#"{{"path":"SKILL.md","sha256":"{SHA}","size":0}},{{"path":"../../.bashrc","sha256":"{SHA}","size":0}}"#
        ));
        assert_eq!(code(parsed(&text)), "catalog_index_invalid");
    }

    #[test]
    fn a_skill_without_skill_md_or_with_a_short_digest_is_catalog_index_invalid() {
        let no_skill_md = index(&format!(r#"{{"path":"README.md","sha256":"{SHA}","size":0}}"#));
        let short = index(r#"{"path":"SKILL.md","sha256":"abc","size":0}"#);
        assert_eq!(code(parsed(&no_skill_md)), "catalog_index_invalid");
        assert_eq!(code(parsed(&short)), "catalog_index_invalid");
    }

    #[test]
    fn a_file_over_the_import_limit_is_catalog_too_large() {
        let text = index(&format!(r#"{{"path":"SKILL.md","sha256":"{SHA}","size":99999999}}"#));
        assert_eq!(code(parsed(&text)), "catalog_too_large");
    }

    #[test]
    fn not_json_and_a_bad_name_are_catalog_index_invalid() {
        assert_eq!(code(parsed("<html>")), "catalog_index_invalid");
        let text = r#"{"skills":[{"name":"../x","files":[]}]}"#;
        assert_eq!(code(parsed(text)), "catalog_index_invalid");
    }

    #[test]
    fn only_http_and_https_urls_without_credentials_are_catalog_urls() {
        use skillcase_common::error::Coded;
        assert!(catalog_url("https://skills.example/index.json").is_ok());
        for bad in [
            "ftp://skills.example/i.json",
            "file:///etc/passwd",
            "skills.example",
            "https://u:p@h/i.json",
            "",
        ] {
            assert_eq!(catalog_url(bad).unwrap_err().code(), "catalog_url_invalid", "{bad}");
        }
    }

    #[test]
    fn files_live_beside_the_index_under_the_skill_name_percent_encoded() {
        let index = Url::parse("http://127.0.0.1:9/cat/index.json?x=1").unwrap();
        assert_eq!(
            file_url(&index, "frete", "references/tabela de preços.md").as_str(),
            "http://127.0.0.1:9/cat/frete/references/tabela%20de%20pre%C3%A7os.md"
        );
    }
}
