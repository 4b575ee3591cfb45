//! The IPC error: the application's `ErrorBody`, serialised as `{ code, message, details? }`.

use serde::Serialize;
use skillcase_application::domain::common::ErrorBody;

/// What every command returns on failure. A newtype so any core error converts with `?`.
#[derive(Debug, Serialize)]
#[serde(transparent)]
pub struct IpcError(ErrorBody);

impl<E: Into<ErrorBody>> From<E> for IpcError {
    fn from(err: E) -> Self {
        IpcError(err.into())
    }
}
