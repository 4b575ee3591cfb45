//! `skillcase catalogs add URL [--kind index|mcp] [--token T] | list | remove ID | pull [ID] |
//! skills [ID] | install CATALOG NAME`, each with `[--data-dir D] [--format text|json]`: remote
//! catalogs (a static JSON index or an MCP server serving the Skills extension) through the same
//! application functions as the window's Catalog screen. `CATALOG` is a subscription's id or
//! URL. Exit 0 on success, 1 on a refusal or when any catalog failed to pull.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;
use skillcase_application::catalogs::NewCatalog;
use skillcase_application::App;
use skillcase_common::ErrorBody;
use skillcase_library::remote::{CatalogKind, PullChange, PullReport, RemoteCatalog, RemoteSkill};

use crate::format::Format;

/// Arguments of `skillcase catalogs`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

/// The data directory and output format every action takes.
#[derive(Debug, clap::Args)]
struct Common {
    /// The data directory whose library and subscriptions to use (default: the usual one).
    #[arg(long, value_name = "D", global = true)]
    data_dir: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text, global = true)]
    format: Format,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Subscribe to a catalog: a static JSON index URL, or an MCP server's endpoint (…/mcp).
    Add {
        /// The index document's URL, or the MCP server's endpoint.
        url: String,
        /// The catalog's kind; found by asking the URL when left out.
        #[arg(long, value_enum)]
        kind: Option<KindArg>,
        /// A bearer token to send with every request (an MCP server behind a gate).
        #[arg(long, value_name = "T")]
        token: Option<String>,
        #[command(flatten)]
        common: Common,
    },
    /// List the subscribed catalogs with their last pull.
    List {
        #[command(flatten)]
        common: Common,
    },
    /// Remove a subscription (local copies installed from it stay).
    Remove {
        /// A subscription's id or URL.
        #[arg(value_name = "CATALOG")]
        catalog: String,
        #[command(flatten)]
        common: Common,
    },
    /// Pull one catalog, or every one: download only the files that changed.
    Pull {
        /// A subscription's id or URL (default: every one).
        #[arg(value_name = "CATALOG")]
        catalog: Option<String>,
        #[command(flatten)]
        common: Common,
    },
    /// List the skills the last pulls found, with their local copies and updates available.
    Skills {
        /// A subscription's id or URL (default: every one).
        #[arg(value_name = "CATALOG")]
        catalog: Option<String>,
        #[command(flatten)]
        common: Common,
    },
    /// Install a pulled skill into the skills directory as a local copy (fork on install).
    Install {
        /// A subscription's id or URL.
        #[arg(value_name = "CATALOG")]
        catalog: String,
        /// The skill's name in the catalog.
        name: String,
        #[command(flatten)]
        common: Common,
    },
}

/// `--kind`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum KindArg {
    Index,
    Mcp,
}

impl Action {
    fn common(&self) -> &Common {
        match self {
            Action::Add { common, .. }
            | Action::List { common }
            | Action::Remove { common, .. }
            | Action::Pull { common, .. }
            | Action::Skills { common, .. }
            | Action::Install { common, .. } => common,
        }
    }
}

/// What an action printed, before it is formatted.
enum Outcome {
    Added(RemoteCatalog),
    Listed(Vec<RemoteCatalog>),
    Removed(i64),
    Pulled { pulled: Vec<PullReport>, failed: Vec<(i64, String, ErrorBody)> },
    Skills(Vec<RemoteSkill>),
    Installed(skillcase_library::remote::RemoteInstall),
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (data_dir, format) = (args.action.common().data_dir.clone(), args.action.common().format);
    let result: Result<Outcome, ErrorBody> = App::block_on(async move {
        let app = crate::workspace::open(data_dir, None).await?;
        anyhow::Ok(act(&app, args.action).await)
    })?;
    let mut stdout = crate::terminal::output(format == Format::Text);
    let outcome = match result {
        Ok(outcome) => outcome,
        Err(error) => {
            match format {
                Format::Json => json_line(&mut stdout, &serde_json::json!({ "error": error }))?,
                Format::Text => writeln!(stdout, "error {}: {}", error.code, error.message)?,
            }
            return Ok(ExitCode::from(1));
        }
    };
    let failed = matches!(&outcome, Outcome::Pulled { failed, .. } if !failed.is_empty());
    match format {
        Format::Json => print_json(&mut stdout, &outcome)?,
        Format::Text => print_text(&mut stdout, &outcome)?,
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

async fn act(app: &App, action: Action) -> Result<Outcome, ErrorBody> {
    Ok(match action {
        Action::Add { url, kind, token, .. } => {
            let kind = kind.map(|k| match k {
                KindArg::Index => CatalogKind::Index,
                KindArg::Mcp => CatalogKind::Mcp,
            });
            Outcome::Added(app.subscribe_catalog(NewCatalog { url, kind, token }).await?)
        }
        Action::List { .. } => Outcome::Listed(app.catalog_subscriptions().await?),
        Action::Remove { catalog, .. } => {
            let id = catalog_id(app, &catalog).await?;
            app.unsubscribe_catalog(id).await?;
            Outcome::Removed(id)
        }
        Action::Pull { catalog: Some(catalog), .. } => {
            let id = catalog_id(app, &catalog).await?;
            Outcome::Pulled { pulled: vec![app.pull_catalog(id).await?], failed: Vec::new() }
        }
        Action::Pull { catalog: None, .. } => {
            let all = app.pull_catalogs().await?;
            let failed = all.failed.into_iter().map(|f| (f.catalog, f.url, f.error)).collect();
            Outcome::Pulled { pulled: all.pulled, failed }
        }
        Action::Skills { catalog, .. } => {
            let id = match catalog {
                Some(catalog) => Some(catalog_id(app, &catalog).await?),
                None => None,
            };
            Outcome::Skills(app.remote_skills(id).await?)
        }
        Action::Install { catalog, name, .. } => {
            let id = catalog_id(app, &catalog).await?;
            Outcome::Installed(app.install_remote_skill(id, name).await?)
        }
    })
}

/// A subscription named by its id or its URL.
async fn catalog_id(app: &App, given: &str) -> Result<i64, ErrorBody> {
    if let Ok(id) = given.parse::<i64>() {
        return Ok(id);
    }
    let catalogs = app.catalog_subscriptions().await?;
    let wanted = skillcase_library::remote::wire::catalog_url(given).map(|u| u.to_string()).ok();
    catalogs.into_iter().find(|c| c.url == given || Some(&c.url) == wanted.as_ref()).map(|c| c.id).ok_or_else(
        || {
            ErrorBody::new(
                "catalog_not_found",
                format!("no subscribed catalog is `{given}`; `skillcase catalogs list` shows them"),
            )
            .with_details(serde_json::json!({ "catalog": given }))
        },
    )
}

fn json_line(out: &mut impl Write, value: &impl Serialize) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}

fn print_json(out: &mut impl Write, outcome: &Outcome) -> std::io::Result<()> {
    match outcome {
        Outcome::Added(catalog) => json_line(out, catalog),
        Outcome::Listed(catalogs) => json_line(out, &serde_json::json!({ "catalogs": catalogs })),
        Outcome::Removed(id) => json_line(out, &serde_json::json!({ "removed": id })),
        Outcome::Pulled { pulled, failed } => {
            let failed: Vec<_> = failed
                .iter()
                .map(|(id, url, error)| serde_json::json!({ "catalog": id, "url": url, "error": error }))
                .collect();
            json_line(out, &serde_json::json!({ "pulled": pulled, "failed": failed }))
        }
        Outcome::Skills(skills) => json_line(out, &serde_json::json!({ "skills": skills })),
        Outcome::Installed(installed) => json_line(out, installed),
    }
}

fn print_text(out: &mut impl Write, outcome: &Outcome) -> std::io::Result<()> {
    match outcome {
        Outcome::Added(c) => {
            writeln!(out, "subscribed catalog {}: {} ({})", c.id, c.url, c.kind.as_str())?;
            writeln!(out, "pull it with `skillcase catalogs pull {}`", c.id)
        }
        Outcome::Listed(catalogs) if catalogs.is_empty() => {
            writeln!(out, "no catalogs; subscribe with `skillcase catalogs add URL`")
        }
        Outcome::Listed(catalogs) => {
            for c in catalogs {
                let pulled = match &c.pulled_at {
                    Some(at) => format!("{} skills, pulled {at}", c.skills),
                    None => "never pulled".to_string(),
                };
                writeln!(out, "{}\t{}\t{}\t{pulled}", c.id, c.kind.as_str(), c.url)?;
                if let Some(error) = &c.last_error {
                    writeln!(out, "\tlast pull failed: {error}")?;
                }
            }
            Ok(())
        }
        Outcome::Removed(id) => writeln!(out, "removed catalog {id}; local copies installed from it stay"),
        Outcome::Pulled { pulled, failed } => {
            for report in pulled {
                print_pull(out, report)?;
            }
            for (id, url, error) in failed {
                writeln!(out, "catalog {id} {url}: error {}: {}", error.code, error.message)?;
            }
            Ok(())
        }
        Outcome::Skills(skills) if skills.is_empty() => {
            writeln!(out, "no remote skills; pull a catalog with `skillcase catalogs pull`")
        }
        Outcome::Skills(skills) => {
            for s in skills {
                let mut notes = Vec::new();
                if s.revoked {
                    notes.push("revoked upstream".to_string());
                } else if s.upstream_removed {
                    notes.push("upstream removed".to_string());
                }
                if let Some(fork) = &s.installed {
                    notes.push(format!("installed as {}", fork.name));
                    if fork.update_available {
                        notes.push("update available".to_string());
                    }
                    if fork.locally_modified {
                        notes.push("locally modified".to_string());
                    }
                }
                let version = s.version.as_deref().unwrap_or("-");
                let notes =
                    if notes.is_empty() { String::new() } else { format!("  [{}]", notes.join(", ")) };
                writeln!(out, "{}\t{}\t{version}\t{} files{notes}", s.catalog, s.name, s.files)?;
            }
            Ok(())
        }
        Outcome::Installed(i) => {
            let upstream = i.upstream_version.as_deref().map(|v| format!(" {v}")).unwrap_or_default();
            let verb = if i.replaced { "updated" } else { "installed" };
            writeln!(
                out,
                "{verb} {}{upstream} from {} as library version {} ({} files)",
                i.name, i.catalog_url, i.version.id, i.version.files
            )
        }
    }
}

fn print_pull(out: &mut impl Write, report: &PullReport) -> std::io::Result<()> {
    let count = |change: PullChange| report.skills.iter().filter(|s| s.change == change).count();
    writeln!(
        out,
        "catalog {} {}: {} new, {} updated, {} unchanged, {} removed, {} revoked; {} file(s) downloaded ({} bytes)",
        report.catalog,
        report.url,
        count(PullChange::New),
        count(PullChange::Updated),
        count(PullChange::Unchanged),
        count(PullChange::Removed),
        count(PullChange::Revoked),
        report.files_downloaded,
        report.bytes_downloaded
    )?;
    for s in report.skills.iter().filter(|s| s.change != PullChange::Unchanged) {
        let change = serde_json::to_value(s.change).ok().and_then(|v| v.as_str().map(str::to_string));
        let version = s.version.as_deref().map(|v| format!(" {v}")).unwrap_or_default();
        writeln!(out, "  {:<9}{}{version}", change.unwrap_or_default(), s.name)?;
    }
    Ok(())
}
