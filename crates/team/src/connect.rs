//! Reaching the team's PostgreSQL: the connection string (checked, and shown only without its
//! password), TLS through rustls with the system's root certificates, and the connection pool.

use std::sync::Arc;
use std::time::Duration;

use r2d2_postgres::PostgresConnectionManager;
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::error::TeamError;

/// How the pool makes connections.
pub type Manager = PostgresConnectionManager<MakeRustlsConnect>;

/// The pool every repository call borrows a connection from.
pub type Pool = r2d2::Pool<Manager>;

/// Connections one instance keeps open at most: a desktop's reads and writes plus the delivery
/// worker and the jobs, without crowding a server shared by a team.
pub const MAX_CONNECTIONS: u32 = 8;

/// How long a call waits for the server before it fails with `team_db_unreachable`.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A checked `postgres://` connection string. Its `Display` hides the password, so it can be
/// logged or shown back in Settings.
#[derive(Clone, PartialEq, Eq)]
pub struct TeamUrl {
    raw: String,
}

impl TeamUrl {
    /// Checks that `raw` is a `postgres://` or `postgresql://` URL naming a host and a database.
    pub fn parse(raw: &str) -> Result<TeamUrl, TeamError> {
        let raw = raw.trim();
        let url = url::Url::parse(raw).map_err(|e| TeamError::InvalidUrl(e.to_string()))?;
        if !matches!(url.scheme(), "postgres" | "postgresql") {
            return Err(TeamError::InvalidUrl(format!(
                "it starts with {}://; a team database URL starts with postgres://",
                url.scheme()
            )));
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(TeamError::InvalidUrl("it names no host".into()));
        }
        if url.path().trim_start_matches('/').is_empty() {
            return Err(TeamError::InvalidUrl("it names no database (postgres://host/DATABASE)".into()));
        }
        raw.parse::<postgres::Config>().map_err(|e| TeamError::InvalidUrl(e.to_string()))?;
        Ok(TeamUrl { raw: raw.to_string() })
    }

    /// Whether `raw` looks like a team database URL rather than a path.
    pub fn is_postgres(raw: &str) -> bool {
        let raw = raw.trim_start();
        raw.starts_with("postgres://") || raw.starts_with("postgresql://")
    }

    /// The connection string with its password, for connecting only.
    pub fn secret(&self) -> &str {
        &self.raw
    }

    /// This server and database as `login` with `password`, for the person just given them.
    pub fn with_login(&self, login: &str, password: &str) -> Result<String, TeamError> {
        let mut url = url::Url::parse(&self.raw).map_err(|e| TeamError::InvalidUrl(e.to_string()))?;
        url.set_username(login)
            .and_then(|()| url.set_password(Some(password)))
            .map_err(|()| TeamError::InvalidUrl("it cannot carry a login".into()))?;
        Ok(url.to_string())
    }

    /// The URL with the password replaced by `****`.
    pub fn redacted(&self) -> String {
        match url::Url::parse(&self.raw) {
            Ok(mut url) if url.password().is_some() => {
                let _ = url.set_password(Some("****"));
                url.to_string()
            }
            Ok(url) => url.to_string(),
            Err(_) => "postgres://…".to_string(),
        }
    }
}

impl std::fmt::Display for TeamUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.redacted())
    }
}

impl std::fmt::Debug for TeamUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TeamUrl({})", self.redacted())
    }
}

/// The TLS connector: rustls with the system's roots. `sslmode` in the URL decides whether it is
/// used (`prefer`, the default, tries TLS first; `require` insists; `disable` never does).
pub fn tls() -> MakeRustlsConnect {
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_native_certs::load_native_certs().certs {
        let _ = roots.add(cert);
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("ring supports the default TLS versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    MakeRustlsConnect::new(config)
}

/// The client configuration of `url`, with a connect timeout unless the URL sets one.
pub fn config(url: &TeamUrl) -> Result<postgres::Config, TeamError> {
    let mut config: postgres::Config =
        url.secret().parse().map_err(|e: postgres::Error| TeamError::InvalidUrl(e.to_string()))?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    config.application_name("skillcase");
    Ok(config)
}

/// Opens a pool of up to `max` connections named `application_name` (what the live updates'
/// writer field carries), failing with `team_db_unreachable` (the server's
/// own words) when the first one cannot be made.
pub fn pool(url: &TeamUrl, max: u32, application_name: &str) -> Result<Pool, TeamError> {
    let mut config = config(url)?;
    config.application_name(application_name);
    let manager = PostgresConnectionManager::new(config.clone(), tls());
    // Connect once by hand first: r2d2 only says "timed out", the server says why.
    config.connect(tls()).map_err(|e| TeamError::unreachable(url, &e))?;
    r2d2::Pool::builder()
        .max_size(max)
        .min_idle(Some(1))
        .connection_timeout(CONNECT_TIMEOUT)
        .build(manager)
        .map_err(|e| TeamError::Unreachable { url: url.redacted(), reason: e.to_string() })
}

/// Connects once to `url` and reads the server's version and how many cases the database holds
/// (0 when Skillcase's schema is not there yet), creating nothing: Settings' Test.
pub fn probe(url: &TeamUrl) -> Result<(String, i64), TeamError> {
    let mut client = config(url)?.connect(tls()).map_err(|e| TeamError::unreachable(url, &e))?;
    let version: String = client.query_one("SHOW server_version", &[])?.try_get(0)?;
    let has_cases: bool = client.query_one("SELECT to_regclass('cases') IS NOT NULL", &[])?.try_get(0)?;
    let cases: i64 = match has_cases {
        true => client.query_one("SELECT count(*) FROM cases", &[])?.try_get(0)?,
        false => 0,
    };
    Ok((version, cases))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_shows_its_password_as_stars() {
        let url = TeamUrl::parse("postgres://ana:s3cret@db.example:5432/support").unwrap();
        assert_eq!(url.to_string(), "postgres://ana:****@db.example:5432/support");
        assert!(!format!("{url:?}").contains("s3cret"));
    }

    #[test]
    fn a_url_without_a_database_is_refused() {
        let err = TeamUrl::parse("postgres://db.example:5432").unwrap_err();
        assert!(err.to_string().contains("names no database"), "{err}");
    }

    #[test]
    fn a_url_of_another_scheme_is_refused() {
        let err = TeamUrl::parse("mysql://db.example/support").unwrap_err();
        assert!(err.to_string().contains("postgres://"), "{err}");
    }
}
