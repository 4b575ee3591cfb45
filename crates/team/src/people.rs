//! The team's people and roles. Each person logs in as their own PostgreSQL role, member of one
//! of three group roles named after the database: `<db>_member` (works the inbox), `<db>_admin`
//! (also the endpoint, the agents and the team's settings) and `<db>_delivery` (the team's
//! `skillcase serve`: the agent's side of a case, the jobs, and the outbox it signs). What each
//! may do is the database's `skillcase_grant()`; who wrote an event is the login's name, set by
//! the database whatever name a desktop typed.
//!
//! [`init`] and [`add_person`] run as the database's owner, a role that may create roles.

use postgres::GenericClient;
use serde::{Deserialize, Serialize};

use crate::error::TeamError;
use crate::{connect, schema, TeamUrl};

/// What a person may do on the team database.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "TeamRole")]
pub enum Role {
    /// Works the inbox: answers, notes, takes, assigns and cancels open cases.
    Member,
    /// A member who also sets the endpoint, the agents and the team's case settings.
    Admin,
    /// The team's `skillcase serve`: opens cases for the agent, runs the jobs, signs deliveries.
    Delivery,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Member => "member",
            Role::Admin => "admin",
            Role::Delivery => "delivery",
        }
    }

    fn parse(name: &str) -> Option<Role> {
        [Role::Member, Role::Admin, Role::Delivery].into_iter().find(|r| r.as_str() == name)
    }

    /// The group role of this kind on `database`.
    fn group(self, database: &str) -> String {
        format!("{database}_{}", self.as_str())
    }

    /// Whether this role may change the team's endpoint, agents and case settings.
    pub fn administers(self) -> bool {
        matches!(self, Role::Admin)
    }

    /// Whether this role runs the delivery worker and the jobs (a member's desktop does not:
    /// it may not read the secrets, nor write what only the agent's side writes).
    pub fn delivers(self) -> bool {
        matches!(self, Role::Admin | Role::Delivery)
    }
}

/// A person on the team: their login, the name the timeline shows, and their role.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[ts(export, rename = "TeamPerson")]
pub struct Person {
    pub login: String,
    pub name: String,
    pub email: Option<String>,
    pub role: Role,
}

/// Someone to add: the name the timeline shows, an email, the login (by default the email's
/// part before `@`) and the role.
#[derive(Debug, Clone)]
pub struct NewPerson {
    pub name: String,
    pub email: Option<String>,
    pub login: Option<String>,
    pub role: Role,
}

/// A person just added, with the connection string they log in with (its password is shown
/// this once and kept nowhere).
#[derive(Debug, Clone, Serialize)]
pub struct AddedPerson {
    pub person: Person,
    pub url: String,
}

/// What [`init`] set up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Setup {
    pub database: String,
    pub groups: Vec<String>,
    pub schema_version: i64,
}

/// Makes `url`'s database a team database with roles: brings the schema up to date, creates the
/// three group roles (idempotent) and grants each what it may do. Run as the database's owner.
pub fn init(url: &TeamUrl) -> Result<Setup, TeamError> {
    let mut client = owner_client(url)?;
    schema::migrate(&mut client)?;
    let mut tx = client.transaction()?;
    let database: String = tx.query_one("SELECT current_database()", &[])?.get(0);
    let groups: Vec<String> =
        [Role::Member, Role::Delivery, Role::Admin].iter().map(|r| r.group(&database)).collect();
    for group in &groups {
        let exists = tx.query_opt("SELECT 1 FROM pg_roles WHERE rolname = $1", &[group])?.is_some();
        if !exists {
            tx.batch_execute(&format!("CREATE ROLE {} NOLOGIN", ident(group)))?;
        }
    }
    tx.batch_execute("SELECT skillcase_grant()")?;
    tx.commit()?;
    Ok(Setup { database, groups, schema_version: schema::SCHEMA_VERSION })
}

/// Adds a person with a login of their own in `role`, and returns the connection string they
/// use (this server and database, their login, a new random password).
pub fn add_person(url: &TeamUrl, new: &NewPerson) -> Result<AddedPerson, TeamError> {
    let person = checked(new)?;
    let password = format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
    let mut client = owner_client(url)?;
    let mut tx = client.transaction()?;
    let database: String = tx.query_one("SELECT current_database()", &[])?.get(0);
    let group = person.role.group(&database);
    if tx.query_opt("SELECT 1 FROM pg_roles WHERE rolname = $1", &[&group])?.is_none() {
        return Err(TeamError::NotInitialised { database });
    }
    if tx.query_opt("SELECT 1 FROM pg_roles WHERE rolname = $1", &[&person.login])?.is_some() {
        return Err(TeamError::LoginTaken { login: person.login.clone() });
    }
    tx.batch_execute(&format!(
        "CREATE ROLE {login} LOGIN PASSWORD {password} IN ROLE {group}",
        login = ident(&person.login),
        password = literal(&password),
        group = ident(&group),
    ))?;
    tx.execute(
        "INSERT INTO people (login, name, email, role, added_at) VALUES ($1, $2, $3, $4, $5)",
        &[&person.login, &person.name, &person.email, &person.role.as_str(), &skillcase_cases::clock::now()],
    )?;
    tx.commit()?;
    Ok(AddedPerson { url: url.with_login(&person.login, &password)?, person })
}

/// The person the connection's login is, if it is one (the database's owner, or the single
/// login of a team set up before roles, is nobody: it may do everything).
pub fn current(client: &mut impl GenericClient) -> Result<Option<Person>, TeamError> {
    let row =
        client.query_opt("SELECT login, name, email, role FROM people WHERE login = session_user", &[])?;
    Ok(row.map(|row| Person {
        login: row.get(0),
        name: row.get(1),
        email: row.get(2),
        role: Role::parse(row.get(3)).unwrap_or(Role::Member),
    }))
}

/// A connection that must be the database's owner's, or [`TeamError::NotOwner`].
fn owner_client(url: &TeamUrl) -> Result<postgres::Client, TeamError> {
    let mut client =
        connect::config(url)?.connect(connect::tls()).map_err(|e| TeamError::unreachable(url, &e))?;
    let owner: bool = client
        .query_one(
            "SELECT pg_has_role(session_user, d.datdba, 'MEMBER') AND (r.rolcreaterole OR r.rolsuper) \
             FROM pg_database d, pg_roles r WHERE d.datname = current_database() AND r.rolname = session_user",
            &[],
        )?
        .get(0);
    match owner {
        true => Ok(client),
        false => Err(TeamError::NotOwner),
    }
}

/// `new` checked: a name, an email with an `@` if given, and a login of lower-case letters,
/// digits and `_` (from the email when none is given).
fn checked(new: &NewPerson) -> Result<Person, TeamError> {
    let name = new.name.trim();
    if name.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err(TeamError::InvalidPerson {
            field: "name",
            reason: "give 1 to 100 printable characters".into(),
        });
    }
    let email = new.email.as_deref().map(str::trim).filter(|e| !e.is_empty());
    if email.is_some_and(|e| !e.contains('@') || e.chars().any(char::is_whitespace)) {
        return Err(TeamError::InvalidPerson { field: "email", reason: "is not an email address".into() });
    }
    let login = match (&new.login, email) {
        (Some(login), _) => login.trim().to_string(),
        (None, Some(email)) => {
            email.split('@').next().unwrap_or_default().to_lowercase().replace(['.', '-', '+'], "_")
        }
        (None, None) => {
            return Err(TeamError::InvalidPerson {
                field: "login",
                reason: "give a login or an email".into(),
            })
        }
    };
    let valid = login.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && login.len() <= 48
        && login.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !valid {
        return Err(TeamError::InvalidPerson {
            field: "login",
            reason: format!("{login:?} must start with a letter and hold only a-z, 0-9 and _ (48 at most)"),
        });
    }
    Ok(Person { login, name: name.to_string(), email: email.map(str::to_string), role: new.role })
}

/// `name` quoted as an SQL identifier.
fn ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// `text` quoted as an SQL string literal.
fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}
