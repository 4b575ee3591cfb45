//! What can go wrong on the team database, each with a stable code (`docs/error-codes.md`), and
//! how it reaches callers: as a [`CasesError`] like every other cases refusal.

use skillcase_cases::CasesError;
use skillcase_common::error::Coded;

/// A failure of the team database, or a domain refusal raised while talking to it.
#[derive(Debug, thiserror::Error)]
pub enum TeamError {
    /// The connection string cannot be used.
    #[error("the team database URL is not valid: {0}")]
    InvalidUrl(String),
    /// The server cannot be reached or refused the login (its own reason, without the password).
    #[error("cannot reach the team database {url}: {reason}")]
    Unreachable { url: String, reason: String },
    /// The database was set up by a newer Skillcase: nothing is changed.
    #[error("the team database has schema version {found}, newer than this Skillcase knows ({supported}); update Skillcase")]
    TooNew { found: i64, supported: i64 },
    /// A statement failed on the server.
    #[error("team database error: {0}")]
    Postgres(#[from] postgres::Error),
    /// No connection became free in time.
    #[error("no team database connection became free: {0}")]
    Pool(#[from] r2d2::Error),
    /// A refusal of the cases domain (`invalid_transition`, `case_not_found`, …).
    #[error(transparent)]
    Cases(#[from] CasesError),
    /// A local inbox is copied only into a team database that holds none yet; nothing was
    /// changed. `tables` are the ones that already have rows.
    #[error("the team database already holds an inbox (rows in {}); copy into a new, empty team database", tables.join(", "))]
    NotEmpty { tables: Vec<&'static str> },
    /// What the team database holds after the copy differs from the local inbox; the copy was
    /// rolled back and nothing was changed.
    #[error("the copy of {table} does not match the local inbox ({local_rows} rows, sha256 {local_sha256} here; {team_rows} rows, sha256 {team_sha256} on the team database); nothing was copied")]
    CopyMismatch {
        table: &'static str,
        local_rows: u64,
        local_sha256: String,
        team_rows: u64,
        team_sha256: String,
    },
    /// Setting up roles or adding a person needs the database's owner, with the right to create
    /// roles; nothing was changed.
    #[error("only the team database's owner, allowed to create roles (createuser --createrole), can set up the team's roles and people")]
    NotOwner,
    /// People are added only once `skillcase team init` made the team's roles.
    #[error("the team database {database} has no roles yet: run skillcase team init first")]
    NotInitialised { database: String },
    /// The login is already a role on this server.
    #[error("the login {login} is taken on this server: choose another with --login")]
    LoginTaken { login: String },
    /// A person's field cannot be used.
    #[error("the person's {field} {reason}")]
    InvalidPerson { field: &'static str, reason: String },
    /// The local SQLite inbox could not be read.
    #[error("cannot read the local inbox: {0}")]
    Local(#[from] rusqlite::Error),
}

impl TeamError {
    /// The connection to `url` failed with `error`.
    pub fn unreachable(url: &crate::TeamUrl, error: &postgres::Error) -> TeamError {
        let reason = match error.as_db_error() {
            Some(db) => db.message().to_string(),
            None => error.to_string(),
        };
        TeamError::Unreachable { url: url.redacted(), reason }
    }

    /// The SQLSTATE of a server error, if this is one.
    pub fn sqlstate(&self) -> Option<&postgres::error::SqlState> {
        match self {
            TeamError::Postgres(e) => e.code(),
            _ => None,
        }
    }
}

impl Coded for TeamError {
    fn code(&self) -> &'static str {
        match self {
            TeamError::InvalidUrl(_) => "invalid_team_url",
            TeamError::Unreachable { .. } | TeamError::Pool(_) => "team_db_unreachable",
            TeamError::TooNew { .. } => "team_db_too_new",
            TeamError::Postgres(e) if e.is_closed() || e.as_db_error().is_none() => "team_db_unreachable",
            TeamError::Postgres(e)
                if e.code() == Some(&postgres::error::SqlState::INSUFFICIENT_PRIVILEGE) =>
            {
                "team_permission_denied"
            }
            TeamError::Postgres(e) if e.code() == Some(&postgres::error::SqlState::QUERY_CANCELED) => {
                "team_query_cancelled"
            }
            TeamError::Postgres(_) => "team_db_error",
            TeamError::Cases(e) => e.code(),
            TeamError::NotEmpty { .. } => "team_db_not_empty",
            TeamError::CopyMismatch { .. } => "team_copy_mismatch",
            TeamError::Local(_) => "db_error",
            TeamError::NotOwner => "team_not_owner",
            TeamError::NotInitialised { .. } => "team_not_initialised",
            TeamError::LoginTaken { .. } => "team_login_taken",
            TeamError::InvalidPerson { .. } => "invalid_team_person",
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        match self {
            TeamError::TooNew { found, supported } => {
                Some(serde_json::json!({ "found": found, "supported": supported }))
            }
            TeamError::Cases(e) => e.details(),
            TeamError::LoginTaken { login } => Some(serde_json::json!({ "login": login })),
            TeamError::InvalidPerson { field, .. } => Some(serde_json::json!({ "field": field })),
            TeamError::NotEmpty { tables } => Some(serde_json::json!({ "tables": tables })),
            TeamError::CopyMismatch { table, local_rows, team_rows, .. } => {
                Some(serde_json::json!({ "table": table, "local_rows": local_rows, "team_rows": team_rows }))
            }
            _ => None,
        }
    }
}

impl From<TeamError> for CasesError {
    fn from(error: TeamError) -> CasesError {
        match error {
            TeamError::Cases(e) => e,
            other => CasesError::Storage { code: other.code(), message: other.to_string(), retryable: false },
        }
    }
}
