//! The workspace policy setting (SPEC A1, A8): may skills carry executables or critical security
//! findings, and the import
//! limits. Limits are checked on the way in so an import never meets a limit of zero or one
//! larger than the whole package may be.

use skillcase_store::settings::SettingsRepository;

use super::error::SettingsError;
use super::store;
use skillcase_skill::policy::{ImportLimits, Policy};

const KEY: &str = "policy";

/// The most files a package may be allowed to hold.
pub const MAX_FILES_CEILING: u32 = 10_000;
/// The largest total size a package may be allowed to have (1 GiB): the most the folder loader
/// reads of a skill, so every skill an import may take can be read back.
pub const MAX_TOTAL_BYTES_CEILING: u64 = skillcase_skill::load::MAX_TOTAL_BYTES;
/// The longest asset extension accepted.
const MAX_EXTENSION_CHARS: usize = 10;

/// The saved policy, or the SPEC's defaults.
pub fn policy(settings: &dyn SettingsRepository) -> Result<Policy, SettingsError> {
    Ok(store::get(settings, KEY)?.unwrap_or_default())
}

/// Validates ([`checked_policy`]) and saves the policy; returns it as stored.
pub fn set_policy(settings: &dyn SettingsRepository, policy: Policy) -> Result<Policy, SettingsError> {
    let policy = checked_policy(policy)?;
    store::put(settings, KEY, &policy)?;
    Ok(policy)
}

/// The policy with its extensions normalised (lowercase, no dot, no repeats), or
/// `invalid_limit` naming the first field out of range.
pub fn checked_policy(policy: Policy) -> Result<Policy, SettingsError> {
    let limits = policy.limits;
    let refuse = |field, reason: String| SettingsError::InvalidLimit { field, reason };
    if !(1..=MAX_FILES_CEILING).contains(&limits.max_files) {
        return Err(refuse("max_files", format!("must be from 1 to {MAX_FILES_CEILING}")));
    }
    if !(1..=MAX_TOTAL_BYTES_CEILING).contains(&limits.max_total_bytes) {
        return Err(refuse("max_total_bytes", format!("must be from 1 to {MAX_TOTAL_BYTES_CEILING} bytes")));
    }
    if !(1..=limits.max_total_bytes).contains(&limits.max_file_bytes) {
        return Err(refuse("max_file_bytes", "must be at least 1 byte and at most the total limit".into()));
    }
    let asset_extensions = normalised_extensions(&limits.asset_extensions)?;
    Ok(Policy {
        allow_executable: policy.allow_executable,
        allow_critical_findings: policy.allow_critical_findings,
        limits: ImportLimits { asset_extensions, ..limits },
    })
}

fn normalised_extensions(raw: &[String]) -> Result<Vec<String>, SettingsError> {
    let mut out: Vec<String> = Vec::with_capacity(raw.len());
    for entry in raw {
        let ext = entry.trim().trim_start_matches('.').to_ascii_lowercase();
        let plain = !ext.is_empty()
            && ext.len() <= MAX_EXTENSION_CHARS
            && ext.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        if !plain {
            return Err(SettingsError::InvalidLimit {
                field: "asset_extensions",
                reason: format!(
                    "{entry:?} is not an extension (1 to {MAX_EXTENSION_CHARS} letters or digits, like png)"
                ),
            });
        }
        if !out.contains(&ext) {
            out.push(ext);
        }
    }
    Ok(out)
}
