//! The team inbox setting (SPEC D4): which PostgreSQL database, if any, holds this desktop's
//! cases instead of the embedded SQLite file. First match wins: the `--database` option, then
//! `$SKILLCASE_DATABASE_URL`, then the URL saved from Settings in `team-database.url` (mode 0600:
//! it carries the password), else the embedded database.
//!
//! The password never leaves this module except to connect: what Settings, `info` and errors
//! show is [`TeamUrl::redacted`].

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use skillcase_common::events::{DomainEvent, EventBus};
use skillcase_common::ErrorBody;
pub use skillcase_team::chain::{ChainBreak, ChainReport};
use skillcase_team::copy::copy_inbox;
pub use skillcase_team::copy::CopyReport;
use skillcase_team::live::{Listener, TeamChange};
pub use skillcase_team::people::{AddedPerson, NewPerson, Person, Role, Setup};
use skillcase_team::PgCases;
pub use skillcase_team::TeamUrl;
use ts_rs::TS;

/// The environment variable `serve`, the CLI and the desktop read the team database URL from.
pub const DATABASE_URL_ENV: &str = "SKILLCASE_DATABASE_URL";

/// The file in the data directory that keeps the URL saved from Settings.
pub const TEAM_FILE: &str = "team-database.url";

/// Where this application's cases live, as Settings shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TeamInbox {
    /// The team database in use, its password shown as `****`; `None`: the embedded database.
    pub url: Option<String>,
    /// Where that choice comes from.
    pub source: TeamSource,
    /// The URL saved in Settings (redacted), which the next start uses unless an option or the
    /// environment says otherwise.
    pub saved: Option<String>,
    /// Why the team database is not in use although one is chosen: it could not be opened when
    /// Skillcase started, so this desktop's own inbox is open instead.
    pub problem: Option<String>,
    /// Who this desktop's login is on the team (`None`: the embedded inbox, or a login that is
    /// nobody in particular — the owner, a team set up before roles).
    pub person: Option<Person>,
}

/// Which setting chose the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum TeamSource {
    /// No team database: the embedded SQLite file.
    Embedded,
    /// `--database` on the command line.
    Option,
    /// `$SKILLCASE_DATABASE_URL`.
    Environment,
    /// Saved in Settings.
    Settings,
}

/// What Test found at a team database URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TeamCheck {
    /// The URL tested, redacted.
    pub url: String,
    /// The server's version (`SHOW server_version`).
    pub server_version: String,
    /// Cases already in the team database (0 for a new one, which a solo inbox can be copied into).
    #[ts(type = "number")]
    pub cases: i64,
}

/// The team database an application runs on: its repositories, where the choice came from, and
/// the listener that puts other instances' changes on this application's bus. Cheap to clone.
#[derive(Clone)]
pub struct TeamConnection {
    pub cases: PgCases,
    pub source: TeamSource,
    /// Who this desktop's login is on the team; `None` for the database's owner or the single
    /// login of a team set up without roles, which may do everything.
    pub person: Option<Person>,
    listener: Arc<Mutex<Option<Listener>>>,
}

impl TeamConnection {
    /// Whether this desktop runs the delivery worker and the jobs: not on a member's login,
    /// which may neither read the signing secrets nor write what only the agent's side writes.
    pub fn delivers(&self) -> bool {
        self.person.as_ref().is_none_or(|person| person.role.delivers())
    }

    /// Starts relaying the changes other instances commit to `events`, as the changes this
    /// application makes itself are announced: a new case as `case-opened`, anything else as
    /// `case-changed` (a resync after a lost connection as a change of no particular case).
    pub fn listen(&self, events: &EventBus) {
        let events = events.clone();
        let listener = self.cases.listen(move |change| {
            events.publish(match change {
                TeamChange::Opened { case_id } => DomainEvent::CaseOpened { id: case_id },
                TeamChange::Changed { case_id } => DomainEvent::CaseChanged { id: case_id },
                TeamChange::Resync => DomainEvent::CaseChanged { id: String::new() },
            })
        });
        *self.listener.lock().unwrap_or_else(|p| p.into_inner()) = Some(listener);
    }

    /// Stops the listener (blocks for at most its poll interval).
    pub fn stop_listening(&self) {
        if let Some(listener) = self.listener.lock().unwrap_or_else(|p| p.into_inner()).take() {
            listener.stop();
        }
    }
}

impl crate::App {
    /// Where this application's cases live and what Settings saved, passwords hidden.
    pub fn team_inbox(&self) -> Result<TeamInbox, ErrorBody> {
        let inner = self.inner();
        let (url, source) = match &inner.team {
            Some(team) => (Some(team.cases.url().redacted()), team.source),
            None => (None, TeamSource::Embedded),
        };
        let saved = saved(&inner.data_dir)?.map(|url| url.redacted());
        let problem = inner.team_unavailable.as_ref().map(|e| e.message.clone());
        let person = inner.team.as_ref().and_then(|team| team.person.clone());
        Ok(TeamInbox { url, source, saved, problem, person })
    }

    /// Where case `id`'s history on the team database is not what its hash chain says (empty
    /// when it is intact, and on the embedded database, which keeps no chain): the case view
    /// warns about each.
    pub async fn case_history_breaks(&self, id: String) -> Result<Vec<ChainBreak>, ErrorBody> {
        self.blocking(move |inner| match &inner.team {
            Some(team) => Ok(team.cases.verify_case_chain(&id)?),
            None => Ok(Vec::new()),
        })
        .await
    }

    /// Settings' Test: reaches the team database at `url` and says what is there, changing
    /// nothing.
    pub async fn test_team_database(&self, url: String) -> Result<TeamCheck, ErrorBody> {
        let url = TeamUrl::parse(&url)?;
        self.blocking(move |_| check(&url)).await
    }

    /// Saves the team database for the next start, after checking it can be reached (an
    /// unreachable one is refused and nothing is saved); `None` goes back to the embedded database.
    pub async fn save_team_database(&self, url: Option<String>) -> Result<TeamInbox, ErrorBody> {
        let url = url.filter(|raw| !raw.trim().is_empty()).map(|raw| TeamUrl::parse(&raw)).transpose()?;
        self.blocking(move |inner| {
            if let Some(url) = &url {
                check(url)?;
            }
            save(&inner.data_dir, url.as_ref())
        })
        .await?;
        self.team_inbox()
    }

    /// Solo → team: copies this desktop's inbox into the empty team database at `url` (its
    /// schema created first) and verifies every table's rows and checksum before committing.
    pub async fn copy_inbox_to_team(&self, url: String) -> Result<CopyReport, ErrorBody> {
        let url = TeamUrl::parse(&url)?;
        self.blocking(move |inner| {
            let team = PgCases::open(&url)?;
            inner.db.read(|conn| copy_inbox(conn, &team).map_err(ErrorBody::from))
        })
        .await
    }
}

/// Saves a case setting the transitions read (targets, calendar) on the team database too, when
/// the cases live on one, so every instance opens cases under the same targets and hours.
pub(crate) fn share_case_setting(
    app: &crate::app::Inner,
    key: &str,
    value: &impl Serialize,
) -> Result<(), ErrorBody> {
    let Some(team) = &app.team else { return Ok(()) };
    let json = serde_json::to_string(value).expect("settings always serialise");
    Ok(team.cases.put_case_setting(key, &json)?)
}

/// Refuses (`team_admin_only`, nothing changed) a change to the team's `what` from a member's
/// login: only admins and the owner set what every instance of the team reads.
pub(crate) fn require_admin(app: &crate::app::Inner, what: &str) -> Result<(), ErrorBody> {
    match app.team.as_ref().and_then(|team| team.person.as_ref()) {
        Some(person) if !person.role.administers() => Err(ErrorBody::new(
            "team_admin_only",
            format!("only the team's admins can change the team's {what}; {} is a member", person.name),
        )),
        _ => Ok(()),
    }
}

/// Opens the team database chosen for an application opened with `explicit`, if one is.
pub async fn connect(explicit: Option<&str>, data_dir: &Path) -> Result<Option<TeamConnection>, ErrorBody> {
    let (Some(url), source) = chosen(explicit, data_dir)? else { return Ok(None) };
    let cases = open(url).await?;
    let found = cases.clone();
    let person =
        tokio::task::spawn_blocking(move || found.person().map_err(ErrorBody::from)).await.unwrap_or_else(
            |e| Err(ErrorBody::new("task_failed", format!("reading the team's people stopped: {e}"))),
        )?;
    Ok(Some(TeamConnection { cases, source, person, listener: Arc::new(Mutex::new(None)) }))
}

/// Whether `error` from opening an application means its team database is out of reach (or
/// refused), so a desktop may open its own inbox instead of not starting.
pub fn is_team_problem(error: &ErrorBody) -> bool {
    matches!(
        error.code.as_str(),
        "team_db_unreachable" | "team_db_too_new" | "team_db_error" | "invalid_team_url"
    )
}

/// The team database chosen for an application opened with `explicit` (`--database`).
pub fn chosen(explicit: Option<&str>, data_dir: &Path) -> Result<(Option<TeamUrl>, TeamSource), ErrorBody> {
    if let Some(raw) = explicit.filter(|raw| !raw.trim().is_empty()) {
        return Ok((Some(TeamUrl::parse(raw)?), TeamSource::Option));
    }
    if let Some(raw) = std::env::var(DATABASE_URL_ENV).ok().filter(|raw| !raw.trim().is_empty()) {
        return Ok((Some(TeamUrl::parse(&raw)?), TeamSource::Environment));
    }
    Ok(match saved(data_dir)? {
        Some(url) => (Some(url), TeamSource::Settings),
        None => (None, TeamSource::Embedded),
    })
}

/// The URL saved in Settings, if any.
pub fn saved(data_dir: &Path) -> Result<Option<TeamUrl>, ErrorBody> {
    let path = data_dir.join(TEAM_FILE);
    match fs::read_to_string(&path) {
        Ok(text) if text.trim().is_empty() => Ok(None),
        Ok(text) => Ok(Some(TeamUrl::parse(text.trim())?)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_error("read", &path, &e)),
    }
}

/// Saves `url` for the next start (mode 0600, replaced atomically), or forgets it with `None`.
pub fn save(data_dir: &Path, url: Option<&TeamUrl>) -> Result<(), ErrorBody> {
    let path = data_dir.join(TEAM_FILE);
    let Some(url) = url else {
        return match fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io_error("remove", &path, &e)),
            _ => Ok(()),
        };
    };
    let temp = write_private(&path, url.secret())?;
    fs::rename(&temp, &path).map_err(|e| {
        let _ = fs::remove_file(&temp);
        io_error("save", &path, &e)
    })?;
    skillcase_common::durable::sync_dir(data_dir).map_err(|e| io_error("save", &path, &e))
}

/// Connects to `url` and reports the server and how many cases it holds, creating nothing: a
/// database without Skillcase's schema yet counts 0 cases.
pub fn check(url: &TeamUrl) -> Result<TeamCheck, ErrorBody> {
    let (server_version, cases) = skillcase_team::connect::probe(url)?;
    Ok(TeamCheck { url: url.redacted(), server_version, cases })
}

/// Opens the team repositories on `url` (migrating its schema), off the async runtime: the
/// blocking client may not run on an async task's thread.
pub async fn open(url: TeamUrl) -> Result<PgCases, ErrorBody> {
    tokio::task::spawn_blocking(move || PgCases::open(&url).map_err(ErrorBody::from)).await.unwrap_or_else(
        |e| Err(ErrorBody::new("task_failed", format!("opening the team database stopped: {e}"))),
    )
}

/// Writes `text` to a new file beside `path` that only this user can read, made durable.
fn write_private(path: &Path, text: &str) -> Result<PathBuf, ErrorBody> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| io_error("create the directory of", path, &e))?;
    let temp = dir.join(format!(".{TEAM_FILE}.{}.tmp", std::process::id()));
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options.open(&temp).and_then(|mut file| {
        file.write_all(format!("{text}\n").as_bytes())?;
        file.sync_all()
    });
    written.map_err(|e| {
        let _ = fs::remove_file(&temp);
        io_error("write", path, &e)
    })?;
    Ok(temp)
}

fn io_error(action: &str, path: &Path, error: &std::io::Error) -> ErrorBody {
    ErrorBody::new("team_setting_io", format!("cannot {action} {}: {error}", path.display()))
}

/// `skillcase team init`: the team's roles on the database at `url`, as its owner (see
/// [`skillcase_team::people::init`]).
pub async fn init_roles(url: TeamUrl) -> Result<Setup, ErrorBody> {
    blocking(move || skillcase_team::people::init(&url).map_err(ErrorBody::from)).await
}

/// `skillcase team add-person`: a person with a login of their own, as the database's owner.
pub async fn add_person(url: TeamUrl, new: NewPerson) -> Result<AddedPerson, ErrorBody> {
    blocking(move || skillcase_team::people::add_person(&url, &new).map_err(ErrorBody::from)).await
}

/// `skillcase team verify`: every case's timeline walked along its hash chain.
pub async fn verify_history(url: TeamUrl) -> Result<ChainReport, ErrorBody> {
    blocking(move || {
        let team = PgCases::open_with(&url, 1)?;
        team.verify_chain().map_err(ErrorBody::from)
    })
    .await
}

/// Runs blocking team database work off the async runtime.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ErrorBody> + Send + 'static,
) -> Result<T, ErrorBody> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|e| {
        Err(ErrorBody::new("task_failed", format!("the team database work stopped: {e}")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "postgres://ana:s3cret@db.example:5432/support";

    #[test]
    fn a_saved_url_is_private_to_the_user() {
        let dir = tempfile::tempdir().unwrap();
        save(dir.path(), Some(&TeamUrl::parse(URL).unwrap())).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.path().join(TEAM_FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert_eq!(saved(dir.path()).unwrap().unwrap().secret(), URL);
    }

    #[test]
    fn forgetting_the_url_goes_back_to_the_embedded_database() {
        let dir = tempfile::tempdir().unwrap();
        save(dir.path(), Some(&TeamUrl::parse(URL).unwrap())).unwrap();
        save(dir.path(), None).unwrap();
        assert_eq!(saved(dir.path()).unwrap(), None);
        assert!(!dir.path().join(TEAM_FILE).exists());
    }

    #[test]
    fn the_option_wins_over_the_saved_url() {
        let dir = tempfile::tempdir().unwrap();
        save(dir.path(), Some(&TeamUrl::parse("postgres://db.example/saved").unwrap())).unwrap();
        let (url, source) = chosen(Some(URL), dir.path()).unwrap();
        assert_eq!((url.unwrap().secret(), source), (URL, TeamSource::Option));
    }

    #[test]
    fn a_bad_option_is_refused_with_its_code() {
        let dir = tempfile::tempdir().unwrap();
        let err = chosen(Some("mysql://db.example/x"), dir.path()).unwrap_err();
        assert_eq!(err.code, "invalid_team_url");
    }
}
