//! `skillcase mcp`: the MCP server over stdio for an agent's host, with the delivery of replies
//! and the watched skills directory running as under `serve`, without the HTTP API. Standard
//! output carries only MCP messages; anything else goes to standard error.

use std::path::PathBuf;
use std::process::ExitCode;

use skillcase_application::{paths, App, AppOptions};

/// Serve MCP on stdin/stdout until the client disconnects (or SIGINT/SIGTERM).
#[derive(Debug, clap::Args)]
pub struct McpArgs {
    /// The skills directory to serve (default: $SKILLCASE_SKILLS_DIR, else the usual one).
    #[arg(long)]
    skills_dir: Option<PathBuf>,
}

/// Opens the data directory ($SKILLCASE_DATA_DIR or the default), waits for the skills scan and
/// serves the client; on its way out the delivery worker hands back any claim it holds.
pub fn run(args: McpArgs) -> anyhow::Result<ExitCode> {
    let options = AppOptions { skills_dir: args.skills_dir, ..crate::workspace::options(paths::data_dir()?) };
    App::block_on(async {
        let stopped = crate::serve::stop_signal()?;
        let app = App::start(options).await?;
        app.scanned().await?;
        let served = tokio::select! {
            served = skillcase_mcp::stdio::serve(app.clone()) => served.map_err(anyhow::Error::from),
            () = stopped => Ok(()),
        };
        app.stop().await;
        served?;
        Ok(ExitCode::SUCCESS)
    })
}
