//! The Skills extension's methods (`io.modelcontextprotocol/skills`, SEP-2640): `skills/list`
//! (paginated by name), `skills/get` (any served skill by the URI of its `SKILL.md`, hidden ones
//! included) and `resources/directory/read` (the direct children of a skill's root or of one of
//! its folders, from the entry's manifest). Each answer is `resultType: "complete"`; the two
//! skill methods also carry the cache hints the extension requires.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{json, Value};

use skillcase_application::domain::skill::model::FileKind;

use crate::catalog::{Catalog, SKILL_MD};
use crate::error::ProtocolError;
use crate::mime;
use crate::uri::{self, SkillUri};

/// The extension's identifier, the key of its capability declaration.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/skills";
/// Skills per `skills/list` page (an entry is never split across pages).
pub const PAGE: usize = 200;
/// Children per `resources/directory/read` page.
pub const DIRECTORY_PAGE: usize = 500;
/// How long a listing or an entry may be treated as current; changes are also notified.
pub const TTL_MS: u64 = 30_000;
/// Entries describe this machine's library; only the requesting user's client may cache them.
pub const CACHE_SCOPE: &str = "private";

/// The method names this module answers.
pub const METHODS: [&str; 3] = ["skills/list", "skills/get", "resources/directory/read"];

#[derive(Debug, Default, Deserialize)]
struct ListParams {
    cursor: Option<String>,
}

#[derive(Debug, Deserialize)]
struct UriParams {
    uri: String,
    cursor: Option<String>,
}

/// Answers one of [`METHODS`].
pub async fn answer(
    catalog: &Arc<Catalog>,
    method: &str,
    params: Option<Value>,
) -> Result<Value, ProtocolError> {
    match method {
        "skills/list" => list(catalog, parse(params.unwrap_or(json!({})))?).await,
        "skills/get" => get(catalog, parse(params.unwrap_or(Value::Null))?).await,
        _ => directory(catalog, parse(params.unwrap_or(Value::Null))?).await,
    }
}

fn parse<T: for<'de> Deserialize<'de>>(params: Value) -> Result<T, ProtocolError> {
    serde_json::from_value(params).map_err(|e| ProtocolError::BadParams(e.to_string()))
}

const CURSOR_PREFIX: &str = "after:";

async fn list(catalog: &Arc<Catalog>, params: ListParams) -> Result<Value, ProtocolError> {
    let after = match params.cursor {
        Some(cursor) => {
            Some(cursor.strip_prefix(CURSOR_PREFIX).map(str::to_string).ok_or_else(|| {
                ProtocolError::BadParams(format!("{cursor:?} is not a cursor of this server"))
            })?)
        }
        None => None,
    };
    let (entries, more) = catalog.page(after, PAGE).await?;
    let next = if more { entries.last().map(|e| format!("{CURSOR_PREFIX}{}", e.name)) } else { None };
    let skills: Vec<&Value> = entries.iter().map(|e| &e.wire).collect();
    let mut result =
        json!({ "resultType": "complete", "skills": skills, "ttlMs": TTL_MS, "cacheScope": CACHE_SCOPE });
    if let Some(next) = next {
        result["nextCursor"] = Value::String(next);
    }
    Ok(result)
}

async fn get(catalog: &Arc<Catalog>, params: UriParams) -> Result<Value, ProtocolError> {
    let unknown = || ProtocolError::UnknownSkill { uri: params.uri.clone() };
    let at = SkillUri::parse(&params.uri).filter(|at| at.path == SKILL_MD).ok_or_else(unknown)?;
    let entry = catalog.skill(at.name).await?.ok_or_else(unknown)?;
    Ok(json!({ "resultType": "complete", "skill": entry.wire, "ttlMs": TTL_MS, "cacheScope": CACHE_SCOPE }))
}

async fn directory(catalog: &Arc<Catalog>, params: UriParams) -> Result<Value, ProtocolError> {
    let missing = || ProtocolError::UnknownResource { uri: params.uri.clone() };
    let at = SkillUri::parse(&params.uri).ok_or_else(missing)?;
    let entry = catalog.skill(at.name.clone()).await?.ok_or_else(missing)?;
    if entry.file(&at.path).is_some() {
        return Err(ProtocolError::NotADirectory { uri: params.uri.clone() });
    }
    let prefix = if at.path.is_empty() { String::new() } else { format!("{}/", at.path) };
    // Each direct child once: a file, or a folder (the first segment below the prefix).
    let mut children: BTreeMap<String, bool> = BTreeMap::new();
    for file in entry.files.iter().filter(|f| f.path.starts_with(&prefix)) {
        let rest = &file.path[prefix.len()..];
        match rest.split_once('/') {
            Some((folder, _)) => children.insert(folder.to_string(), true),
            None => children.insert(rest.to_string(), false),
        };
    }
    if children.is_empty() {
        return Err(missing());
    }
    let start = match &params.cursor {
        Some(cursor) => cursor
            .parse::<usize>()
            .map_err(|_| ProtocolError::BadParams(format!("{cursor:?} is not a cursor of this server")))?,
        None => 0,
    };
    let resources: Vec<Value> = children
        .iter()
        .skip(start)
        .take(DIRECTORY_PAGE)
        .map(|(child, is_dir)| {
            let path = format!("{prefix}{child}");
            let mime_type = if *is_dir {
                mime::DIRECTORY
            } else {
                let file = entry.file(&path).expect("a listed child is in the manifest");
                mime::of(&path, file.kind != FileKind::Asset)
            };
            json!({ "uri": uri::of(&entry.name, &path), "name": child, "mimeType": mime_type })
        })
        .collect();
    let mut result = json!({ "resultType": "complete", "resources": resources });
    if start + DIRECTORY_PAGE < children.len() {
        result["nextCursor"] = Value::String((start + DIRECTORY_PAGE).to_string());
    }
    Ok(result)
}
