//! The local API port setting (SPEC B4, default 7878). A port is accepted only when the API
//! could listen on it now: the check binds 127.0.0.1:port and lets go, which is the only
//! reliable way to know; the port the API already uses is accepted without a check.

use std::net::{Ipv4Addr, TcpListener};

use skillcase_store::settings::SettingsRepository;

use super::error::SettingsError;
use super::store;

const KEY: &str = "api_port";

/// The port of SPEC B4 when nothing else is chosen.
pub const DEFAULT_PORT: u16 = 7878;

/// Environment variable that overrides the API port (tests use 0 for a free one).
pub const API_PORT_ENV: &str = "SKILLCASE_API_PORT";

/// The port from `$SKILLCASE_API_PORT`, else the default 7878.
pub fn port_from_env() -> Result<u16, skillcase_common::ErrorBody> {
    match std::env::var(API_PORT_ENV) {
        Ok(text) if !text.is_empty() => text.parse().map_err(|_| {
            skillcase_common::ErrorBody::new(
                "invalid_api_port",
                format!("{API_PORT_ENV}={text} is not a port number (0-65535)"),
            )
        }),
        _ => Ok(DEFAULT_PORT),
    }
}

/// The lowest port accepted: ports below it need administrator rights on most systems.
pub const MIN_PORT: u32 = 1024;

/// The saved API port, or the default 7878.
pub fn api_port(settings: &dyn SettingsRepository) -> Result<u16, SettingsError> {
    Ok(store::get(settings, KEY)?.unwrap_or(DEFAULT_PORT))
}

/// The port the API starts on: `$SKILLCASE_API_PORT` when set (tests use 0), else the setting.
pub fn startup_api_port(settings: &dyn SettingsRepository) -> Result<u16, skillcase_common::ErrorBody> {
    if std::env::var_os(API_PORT_ENV).is_some_and(|v| !v.is_empty()) {
        return port_from_env();
    }
    Ok(api_port(settings)?)
}

/// Checks that `port` is in range and, unless it is `current` (the port the API listens on
/// now), free on 127.0.0.1.
pub fn check_api_port(port: u32, current: Option<u16>) -> Result<u16, SettingsError> {
    let valid = u16::try_from(port).ok().filter(|p| u32::from(*p) >= MIN_PORT).ok_or_else(|| {
        SettingsError::InvalidApiPort { port, reason: format!("choose one from {MIN_PORT} to 65535") }
    })?;
    if current == Some(valid) {
        return Ok(valid);
    }
    match TcpListener::bind((Ipv4Addr::LOCALHOST, valid)) {
        Ok(listener) => {
            drop(listener);
            Ok(valid)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
            Err(SettingsError::ApiPortInUse { port: valid })
        }
        Err(e) => Err(SettingsError::ApiPortUnavailable { port: valid, reason: e.to_string() }),
    }
}

/// Validates ([`check_api_port`]) and saves the API port. The caller restarts the API on it.
pub fn set_api_port(
    settings: &dyn SettingsRepository,
    port: u32,
    current: Option<u16>,
) -> Result<u16, SettingsError> {
    let port = check_api_port(port, current)?;
    store::put(settings, KEY, &port)?;
    Ok(port)
}
