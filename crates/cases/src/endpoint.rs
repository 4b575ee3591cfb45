//! The agent endpoint's settings: where replies are POSTed, the signing secret, the timeout and
//! how many attempts a delivery gets. Stored in the one-row `agent_endpoint` table; validated on
//! the way in so the worker never meets a URL it cannot use.

use crate::args;
use crate::sql::{Row, Sql};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::clock;
use super::error::CasesError;
use super::signature;

/// The request timeout when the person does not choose one (SPEC B3).
pub const DEFAULT_TIMEOUT_SECS: u32 = 10;
/// Attempts before a delivery is `dead`: with backoff doubling from about 1 s to 5 min, 15
/// attempts keep trying for roughly half an hour.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 15;
/// The accepted timeout range, in seconds.
pub const TIMEOUT_RANGE: std::ops::RangeInclusive<u32> = 1..=120;
/// The accepted attempt-limit range.
pub const MAX_ATTEMPTS_RANGE: std::ops::RangeInclusive<u32> = 1..=100;

/// The endpoint as the delivery worker uses it, secret included. Never sent to the UI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointSettings {
    pub url: String,
    pub secret: String,
    pub timeout_secs: u32,
    pub max_attempts: u32,
    pub enabled: bool,
}

/// The endpoint as Settings shows it: everything but the secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct EndpointView {
    pub url: String,
    pub has_secret: bool,
    pub timeout_secs: u32,
    pub max_attempts: u32,
    pub enabled: bool,
    pub updated_at: String,
}

/// What Settings saves. A missing `secret` keeps the stored one; missing numbers take the
/// defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct EndpointInput {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub secret: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub timeout_secs: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_attempts: Option<u32>,
    pub enabled: bool,
}

/// The stored endpoint, if one was ever configured.
pub fn get_endpoint(sql: &mut dyn Sql) -> Result<Option<EndpointSettings>, CasesError> {
    let row = sql.query_opt(
        "SELECT url, secret, timeout_secs, max_attempts, enabled FROM agent_endpoint WHERE id = 1",
        &[],
    )?;
    let Some(row) = row else { return Ok(None) };
    Ok(Some(EndpointSettings {
        url: row.text(0)?,
        secret: row.text(1)?,
        timeout_secs: setting(&row, 2, "timeout_secs")?,
        max_attempts: setting(&row, 3, "max_attempts")?,
        enabled: row.bool(4)?,
    }))
}

/// A stored number of the endpoint's settings.
fn setting(row: &Row, column: usize, what: &'static str) -> Result<u32, CasesError> {
    let value = row.int(column)?;
    u32::try_from(value).map_err(|_| CasesError::Corrupt { what, value: value.to_string() })
}

/// The stored endpoint without its secret (nor any credentials in its URL), for Settings. The
/// secret's column is not read at all: on a team, a member's login may not read it, and a stored
/// endpoint always has one ([`set_endpoint`] refuses an endpoint without).
pub fn endpoint_view(sql: &mut dyn Sql) -> Result<Option<EndpointView>, CasesError> {
    let row = sql.query_opt(
        "SELECT url, true, timeout_secs, max_attempts, enabled, updated_at FROM agent_endpoint WHERE id = 1",
        &[],
    )?;
    let Some(row) = row else { return Ok(None) };
    Ok(Some(EndpointView {
        url: without_credentials(&row.text(0)?),
        has_secret: row.bool(1)?,
        timeout_secs: setting(&row, 2, "timeout_secs")?,
        max_attempts: setting(&row, 3, "max_attempts")?,
        enabled: row.bool(4)?,
        updated_at: row.text(5)?,
    }))
}

/// Validates and stores the endpoint: the URL must be absolute `http` or `https` with a host
/// (`invalid_endpoint_url`) and no user name or password (`endpoint_url_has_credentials`), the secret usable for signing and the numbers in range
/// (`invalid_endpoint_setting`). Nothing is stored when any of them is wrong.
pub fn set_endpoint(sql: &mut dyn Sql, input: &EndpointInput) -> Result<EndpointView, CasesError> {
    let endpoint = checked_endpoint(sql, input)?;
    sql.execute(
        "INSERT INTO agent_endpoint (id, url, secret, timeout_secs, max_attempts, enabled, updated_at) \
         VALUES (1, $1, $2, $3, $4, $5, $6) \
         ON CONFLICT (id) DO UPDATE SET url = excluded.url, secret = excluded.secret, \
         timeout_secs = excluded.timeout_secs, max_attempts = excluded.max_attempts, \
         enabled = excluded.enabled, updated_at = excluded.updated_at",
        args![
            &endpoint.url,
            &endpoint.secret,
            i64::from(endpoint.timeout_secs),
            i64::from(endpoint.max_attempts),
            endpoint.enabled,
            clock::now().as_str(),
        ],
    )?;
    Ok(endpoint_view(sql)?.expect("the row was just written"))
}

/// The endpoint `input` describes, validated as [`set_endpoint`] does but not stored (a missing
/// secret is the stored one): what Settings' Test button sends a ping to before saving.
pub fn checked_endpoint(sql: &mut dyn Sql, input: &EndpointInput) -> Result<EndpointSettings, CasesError> {
    let url = checked_url(&input.url)?;
    let timeout_secs =
        in_range("timeout_secs", input.timeout_secs.unwrap_or(DEFAULT_TIMEOUT_SECS), TIMEOUT_RANGE)?;
    let max_attempts =
        in_range("max_attempts", input.max_attempts.unwrap_or(DEFAULT_MAX_ATTEMPTS), MAX_ATTEMPTS_RANGE)?;
    let secret = match input.secret.as_deref().map(str::trim) {
        Some(secret) => {
            signature::signing_key(secret)?;
            secret.to_string()
        }
        None => get_endpoint(sql)?.map(|e| e.secret).ok_or(CasesError::InvalidEndpointSetting {
            field: "secret",
            reason: "is required the first time the endpoint is configured".into(),
        })?,
    };
    Ok(EndpointSettings { url, secret, timeout_secs, max_attempts, enabled: input.enabled })
}

/// The URL as it is stored: absolute `http`/`https` with a host and without credentials. A user
/// name or password in the URL would be stored and shown like any other part of it, so it is
/// refused (`endpoint_url_has_credentials`); refusals quote the URL with any credentials masked.
pub fn checked_url(raw: &str) -> Result<String, CasesError> {
    let raw = raw.trim();
    let shown = masked(raw);
    let refuse =
        |reason: &str| CasesError::InvalidEndpointUrl { url: shown.clone(), reason: reason.to_string() };
    let url = reqwest::Url::parse(raw).map_err(|e| refuse(&e.to_string()))?;
    if !url.username().is_empty() || url.password().is_some() {
        return Err(CasesError::EndpointUrlCredentials { url: shown });
    }
    if !matches!(url.scheme(), "http" | "https") {
        return Err(refuse("the scheme must be http or https"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(refuse("it has no host"));
    }
    Ok(url.to_string())
}

/// A stored URL with its credentials, if any, replaced by `***`: the URL crate writes a user
/// name or password only between `://` and the first `/`, `?` or `#`. URLs stored before
/// credentials were refused may still carry some; Settings and `endpoint show` never print them.
pub fn without_credentials(url: &str) -> String {
    let start = url.find("://").map_or(0, |at| at + 3);
    let end = url[start..].find(['/', '?', '#']).map_or(url.len(), |at| start + at);
    match url[start..end].rfind('@') {
        Some(at) => format!("{}***{}", &url[..start], &url[start + at..]),
        None => url.to_string(),
    }
}

/// A URL as typed, for a refusal's message: everything up to the last `@` before any query or
/// fragment is masked, since what the person typed may not parse at all (`http://u:p/w@host`).
fn masked(raw: &str) -> String {
    let start = raw.find("://").map_or(0, |at| at + 3);
    let end = raw[start..].find(['?', '#']).map_or(raw.len(), |at| start + at);
    match raw[start..end].rfind('@') {
        Some(at) => format!("{}***{}", &raw[..start], &raw[start + at..]),
        None => raw.to_string(),
    }
}

/// `value` if it lies in `range`, else `invalid_endpoint_setting` naming `field` and the range.
/// Public so the team database's endpoint settings are checked by this same rule.
pub fn in_range(
    field: &'static str,
    value: u32,
    range: std::ops::RangeInclusive<u32>,
) -> Result<u32, CasesError> {
    if !range.contains(&value) {
        return Err(CasesError::InvalidEndpointSetting {
            field,
            reason: format!("{value} is outside {}..={}", range.start(), range.end()),
        });
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillcase_common::error::Coded;

    #[test]
    fn a_url_with_a_user_and_password_is_refused_without_repeating_the_password() {
        let err = checked_url("http://agent:hunter2@127.0.0.1:9000/hooks").unwrap_err();
        assert_eq!(err.code(), "endpoint_url_has_credentials");
        assert!(!err.to_string().contains("hunter2"), "{err}");
        assert_eq!(err.details().unwrap()["url"], "http://***@127.0.0.1:9000/hooks");
    }

    #[test]
    fn a_url_with_only_a_user_name_is_refused_too() {
        assert_eq!(
            checked_url("https://agent@hooks.example/x").unwrap_err().code(),
            "endpoint_url_has_credentials"
        );
    }

    #[test]
    fn an_unparseable_url_is_quoted_with_its_credentials_masked() {
        for url in ["http://agent:hunter2@exa mple/hooks", "http://agent:hun/ter2@example/hooks"] {
            let err = checked_url(url).unwrap_err();
            assert!(!err.to_string().contains("hun"), "{err}");
        }
    }

    #[test]
    fn an_at_sign_in_the_path_or_query_is_not_a_credential() {
        assert_eq!(
            checked_url("http://127.0.0.1:9000/hooks/@team?to=a@b").unwrap(),
            "http://127.0.0.1:9000/hooks/@team?to=a@b"
        );
    }

    #[test]
    fn a_stored_url_is_shown_with_its_credentials_masked_and_its_path_intact() {
        assert_eq!(without_credentials("http://127.0.0.1:9000/a@b"), "http://127.0.0.1:9000/a@b");
        assert_eq!(without_credentials("http://u:p@h/x@y"), "http://***@h/x@y");
    }
}
