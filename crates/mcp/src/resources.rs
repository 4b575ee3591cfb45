//! The base protocol's Resources over the skills: `resources/list` names each listed skill's
//! `SKILL.md` (its files are in the skill's entry), and `resources/read` returns any file of a
//! served skill byte for byte from the stored version — UTF-8 as `text`, anything else as a
//! base64 `blob` — or `-32602` for a URI that names no such file.

use std::sync::Arc;

use base64::Engine as _;
use rmcp::model::{CacheScope, ListResourcesResult, ReadResourceResult, Resource, ResourceContents};

use crate::catalog::{Catalog, SKILL_MD};
use crate::error::ProtocolError;
use crate::extension::{PAGE, TTL_MS};
use crate::mime;
use crate::uri::{self, SkillUri};

/// One page of `SKILL.md` resources, in skill name order; the cursor is the one of `skills/list`.
pub async fn list(
    catalog: &Arc<Catalog>,
    cursor: Option<String>,
) -> Result<ListResourcesResult, ProtocolError> {
    let after = cursor.map(|c| c.strip_prefix("after:").map(str::to_string).unwrap_or(c));
    let (entries, more) = catalog.page(after, PAGE).await?;
    let next_cursor = if more { entries.last().map(|e| format!("after:{}", e.name)) } else { None };
    let resources = entries
        .iter()
        .map(|entry| {
            let size = entry.file(SKILL_MD).map_or(0, |f| f.size);
            let mut resource = Resource::new(uri::of(&entry.name, SKILL_MD), entry.name.clone())
                .with_mime_type("text/markdown")
                .with_size(size);
            if let Some(description) = &entry.description {
                resource = resource.with_description(description.clone());
            }
            resource
        })
        .collect();
    let mut result = ListResourcesResult::with_all_items(resources);
    result.next_cursor = next_cursor;
    result.ttl_ms = Some(TTL_MS);
    result.cache_scope = Some(CacheScope::Private);
    Ok(result)
}

/// The file `uri` names.
pub async fn read(catalog: &Arc<Catalog>, uri: String) -> Result<ReadResourceResult, ProtocolError> {
    let missing = || ProtocolError::UnknownResource { uri: uri.clone() };
    let at = SkillUri::parse(&uri).ok_or_else(missing)?;
    let path = at.path.clone();
    let (_, bytes) = catalog.file(at).await?.ok_or_else(missing)?;
    let contents = match String::from_utf8(bytes) {
        Ok(text) => ResourceContents::text(text, uri.clone()).with_mime_type(mime::of(&path, true)),
        Err(not_text) => {
            let blob = base64::engine::general_purpose::STANDARD.encode(not_text.as_bytes());
            ResourceContents::blob(blob, uri.clone()).with_mime_type(mime::of(&path, false))
        }
    };
    Ok(ReadResourceResult::new(vec![contents]).with_ttl_ms(TTL_MS).with_cache_scope(CacheScope::Private))
}
