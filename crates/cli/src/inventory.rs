//! `skillcase inventory [--data-dir D] [--format text|json|csv]`: every skill of the library with
//! its origin, live version and digest, where it came from (local, the factory catalog, or a
//! remote catalog's URL, with the upstream version and whether upstream removed it or moved
//! ahead) and every known agent folder it is installed in (from their `skillcase.lock`), through
//! the same application function as the window.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use skillcase_application::catalogs::InventoryItem;
use skillcase_application::install::{InstallState, OtherPlace};
use skillcase_application::App;
use skillcase_library::install::ecosystem::OtherState;

/// Arguments of `skillcase inventory`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The data directory whose library to list (default: the usual one).
    #[arg(long, value_name = "D")]
    data_dir: Option<PathBuf>,
    /// The skills directory to list (default: the saved setting).
    #[arg(long, value_name = "DIR")]
    skills_dir: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = InventoryFormat::Text)]
    format: InventoryFormat,
}

/// `--format`: the usual two and CSV for spreadsheets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum InventoryFormat {
    Text,
    Json,
    Csv,
}

/// The CSV header, one column per field (`installed` joins `agent:dir:state` with `;`). Skills
/// another tool installed follow the library's, with origin `other_tool`.
pub const CSV_HEADER: &str =
    "name,origin,version,digest,source,catalog_url,upstream_version,upstream_removed,update_available,installed";

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (items, others) = App::block_on(async {
        let app = crate::workspace::open(args.data_dir.clone(), args.skills_dir.clone()).await?;
        anyhow::Ok((app.inventory().await?, app.installed_by_other_tools().await?))
    })?;
    let mut stdout = crate::terminal::output(args.format == InventoryFormat::Text);
    match args.format {
        InventoryFormat::Json => {
            serde_json::to_writer_pretty(
                &mut stdout,
                &serde_json::json!({ "skills": items, "others": others }),
            )?;
            writeln!(stdout)?;
        }
        InventoryFormat::Csv => {
            writeln!(stdout, "{CSV_HEADER}")?;
            for item in &items {
                writeln!(stdout, "{}", csv_row(item))?;
            }
            for other in &others {
                writeln!(stdout, "{}", other_csv_row(other))?;
            }
        }
        InventoryFormat::Text => {
            if items.is_empty() {
                writeln!(stdout, "the library has no skills")?;
            }
            for item in &items {
                print_text(&mut stdout, item)?;
            }
            if !others.is_empty() {
                writeln!(stdout, "installed by other tools (the skills CLI, gh skill):")?;
            }
            for other in &others {
                let skill = &other.skill;
                writeln!(
                    stdout,
                    "{}\t{}\t{}\t{}",
                    skill.name,
                    skill.source_type,
                    skill.source,
                    other_installed(other)
                )?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn state_text(state: InstallState) -> &'static str {
    match state {
        InstallState::InSync => "in_sync",
        InstallState::Drifted => "drifted",
        InstallState::Outdated => "outdated",
    }
}

fn installed_text(item: &InventoryItem) -> Vec<String> {
    item.installed
        .iter()
        .map(|p| format!("{}:{}:{}", p.target.agent.as_str(), p.dir, state_text(p.state)))
        .collect()
}

fn print_text(out: &mut impl Write, item: &InventoryItem) -> std::io::Result<()> {
    let version = item.version.map(|v| format!("v{v}")).unwrap_or_else(|| "-".into());
    let digest = item.digest.as_deref().map(|d| &d[..12.min(d.len())]).unwrap_or("-");
    let mut source = item.source.as_str().to_string();
    if let Some(url) = &item.catalog_url {
        source = format!("{source} {url}");
        if let Some(upstream) = &item.upstream_version {
            source = format!("{source} ({upstream})");
        }
    }
    let mut notes = Vec::new();
    if item.upstream_removed {
        notes.push("upstream removed");
    }
    if item.update_available {
        notes.push("update available");
    }
    let notes = if notes.is_empty() { String::new() } else { format!("  [{}]", notes.join(", ")) };
    writeln!(out, "{}\t{}\t{version}\t{digest}\t{source}{notes}", item.name, item.origin.as_str())?;
    for place in installed_text(item) {
        writeln!(out, "\tinstalled {place}")?;
    }
    Ok(())
}

fn csv_row(item: &InventoryItem) -> String {
    let fields = [
        item.name.clone(),
        item.origin.as_str().to_string(),
        item.version.map(|v| v.to_string()).unwrap_or_default(),
        item.digest.clone().unwrap_or_default(),
        item.source.as_str().to_string(),
        item.catalog_url.clone().unwrap_or_default(),
        item.upstream_version.clone().unwrap_or_default(),
        item.upstream_removed.to_string(),
        item.update_available.to_string(),
        installed_text(item).join(";"),
    ];
    fields.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(",")
}

/// Where a skill another tool installed is, as the `installed` column says it.
fn other_installed(other: &OtherPlace) -> String {
    let state = match other.skill.state {
        OtherState::InSync => "in_sync",
        OtherState::Drifted => "drifted",
        OtherState::Unchecked => "unchecked",
    };
    format!("{}:{}:{state}", other.target.agent.as_str(), other.dir)
}

/// A skill another tool installed as a CSV row: origin `other_tool`, its source and where.
fn other_csv_row(other: &OtherPlace) -> String {
    let skill = &other.skill;
    let fields = [
        skill.name.as_str(),
        "other_tool",
        "",
        "",
        &skill.source,
        "",
        "",
        "false",
        "false",
        &other_installed(other),
    ];
    fields.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(",")
}

/// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_with_commas_or_quotes_are_quoted() {
        assert_eq!(csv_field("frete"), "frete");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
