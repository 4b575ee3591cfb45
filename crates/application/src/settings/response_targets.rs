//! Response-time targets (SPEC D5): the first human reply and the resolution, each in business
//! minutes of the workspace's calendar, each off until a person sets it — an update must not
//! start flagging cases as late against a target nobody chose. A case keeps the targets it was
//! opened under ([`skillcase_cases::sla`]).

use skillcase_cases::sla::{ResponseTargets, TARGETS_SETTING};
use skillcase_store::settings::SettingsRepository;

use super::error::SettingsError;
use super::store;

/// The saved targets, both off until some are saved.
pub fn response_targets(settings: &dyn SettingsRepository) -> Result<ResponseTargets, SettingsError> {
    Ok(store::get(settings, TARGETS_SETTING)?.unwrap_or_default())
}

/// Checks and saves the targets; nothing is saved when one is out of range. Cases opened from
/// now on take them.
pub fn set_response_targets(
    settings: &dyn SettingsRepository,
    value: ResponseTargets,
) -> Result<ResponseTargets, SettingsError> {
    checked(value)?;
    store::put(settings, TARGETS_SETTING, &value)?;
    Ok(value)
}

fn checked(value: ResponseTargets) -> Result<(), SettingsError> {
    match value.problem() {
        Some((field, reason)) => Err(SettingsError::InvalidResponseTarget { field, reason }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillcase_common::Coded;

    #[test]
    fn a_zero_minute_target_is_refused_with_its_code_and_field() {
        let value = ResponseTargets { first_reply_minutes: Some(0), resolution_minutes: Some(480) };
        let err = checked(value).unwrap_err();
        assert_eq!(err.code(), "invalid_response_target");
        assert_eq!(err.details(), Some(serde_json::json!({ "field": "first_reply_minutes" })));
    }

    #[test]
    fn both_targets_off_are_accepted() {
        assert!(checked(ResponseTargets::default()).is_ok());
    }
}
