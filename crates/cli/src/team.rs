//! `skillcase team init | add-person | verify`: the team database's roles, its people, and the
//! check of its history, on the database `--database` (or `$SKILLCASE_DATABASE_URL`, or the one
//! saved in Settings) names. `init` and `add-person` run as the database's owner.

use std::io::Write;
use std::process::ExitCode;

use skillcase_application::team::{self, AddedPerson, ChainReport, NewPerson, Role, Setup, TeamUrl};
use skillcase_application::{paths, App};
use skillcase_common::ErrorBody;

use crate::format::Format;

/// Set up the team database's roles and people, or check its history.
#[derive(Debug, clap::Args)]
pub struct TeamArgs {
    #[command(subcommand)]
    action: Action,
    /// text (default) or json.
    #[arg(long, value_enum, default_value = "text", global = true)]
    format: Format,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// As the database's owner: bring the schema up to date and create the team's roles
    /// (member, admin, delivery), each allowed only what it needs. Safe to run again.
    Init,
    /// As the database's owner: give a person a login of their own; prints the connection string
    /// they use (its password is shown this once).
    AddPerson {
        /// The name the timeline shows for what they do.
        name: String,
        /// Their email; the login is its part before `@` unless --login says otherwise.
        #[arg(long)]
        email: Option<String>,
        /// Their login (a-z, 0-9, _).
        #[arg(long)]
        login: Option<String>,
        /// Also sets the endpoint, the agents and the team's settings.
        #[arg(long, conflicts_with = "delivery")]
        admin: bool,
        /// The login of the team's `skillcase serve`, which signs and sends the replies.
        #[arg(long)]
        delivery: bool,
    },
    /// Walk every case's timeline along its hash chain; exit 1 if anything was changed, removed
    /// or slipped in.
    Verify,
}

/// Runs the subcommand; a refusal exits 1 with its code.
pub fn run(args: TeamArgs) -> anyhow::Result<ExitCode> {
    let format = args.format;
    let outcome = App::block_on(async move {
        let url = url()?;
        Ok::<_, ErrorBody>(match args.action {
            Action::Init => Done::Init(team::init_roles(url).await?),
            Action::AddPerson { name, email, login, admin, delivery } => {
                let role = match (admin, delivery) {
                    (true, _) => Role::Admin,
                    (_, true) => Role::Delivery,
                    _ => Role::Member,
                };
                Done::Added(team::add_person(url, NewPerson { name, email, login, role }).await?)
            }
            Action::Verify => Done::Verified(team::verify_history(url).await?),
        })
    });
    match outcome {
        Ok(done) => done.print(format),
        Err(body) => {
            match format {
                Format::Json => println!("{}", serde_json::to_string(&serde_json::json!({ "error": body }))?),
                Format::Text => {
                    writeln!(crate::terminal::stderr(), "refused ({}): {}", body.code, body.message)?
                }
            }
            Ok(ExitCode::from(1))
        }
    }
}

/// The team database this run names.
fn url() -> Result<TeamUrl, ErrorBody> {
    let data_dir = paths::data_dir()?;
    match team::chosen(crate::workspace::database().as_deref(), &data_dir)? {
        (Some(url), _) => Ok(url),
        (None, _) => Err(ErrorBody::new(
            "team_db_not_chosen",
            "name the team database with --database postgres://owner@host/database",
        )),
    }
}

enum Done {
    Init(Setup),
    Added(AddedPerson),
    Verified(ChainReport),
}

impl Done {
    fn print(self, format: Format) -> anyhow::Result<ExitCode> {
        let mut out = crate::terminal::output(format == Format::Text);
        let code = match &self {
            Done::Verified(report) if !report.breaks.is_empty() => ExitCode::from(1),
            _ => ExitCode::SUCCESS,
        };
        match (format, self) {
            (Format::Json, Done::Init(setup)) => writeln!(out, "{}", serde_json::to_string_pretty(&setup)?)?,
            (Format::Json, Done::Added(added)) => writeln!(out, "{}", serde_json::to_string_pretty(&added)?)?,
            (Format::Json, Done::Verified(report)) => {
                writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?
            }
            (Format::Text, Done::Init(setup)) => writeln!(
                out,
                "{}: schema {}, roles {} — add people with skillcase team add-person",
                setup.database,
                setup.schema_version,
                setup.groups.join(", ")
            )?,
            (Format::Text, Done::Added(added)) => {
                let person = &added.person;
                writeln!(out, "added {} ({}) as {}", person.name, person.login, person.role.as_str())?;
                writeln!(out, "their connection string, shown this once:")?;
                writeln!(out, "{}", added.url)?;
            }
            (Format::Text, Done::Verified(report)) => {
                for found in &report.breaks {
                    let at = found.seq.map(|seq| format!(", event {seq}")).unwrap_or_default();
                    writeln!(out, "#{}{at}: {}", found.number, found.problem)?;
                }
                let verdict = if report.breaks.is_empty() { "intact" } else { "BROKEN" };
                writeln!(out, "{} cases, {} events: history {verdict}", report.cases, report.events)?;
            }
        }
        Ok(code)
    }
}
