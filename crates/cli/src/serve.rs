//! `skillcase serve`: the local agent API (and the delivery of replies) without the window.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use skillcase_application::info::ApiStatus;
use skillcase_application::{paths, App, AppOptions};
use skillcase_cases::endpoint::EndpointInput;
use skillcase_host::Host;

/// Serve the local agent API on 127.0.0.1 until interrupted (SIGINT or SIGTERM).
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The port on 127.0.0.1 (0 picks a free one and prints it; default: the Settings port, 7878).
    #[arg(long)]
    port: Option<u16>,
    /// The skills directory to serve (default: $SKILLCASE_SKILLS_DIR, else the usual one).
    #[arg(long)]
    skills_dir: Option<PathBuf>,
    /// Save this agent endpoint (where replies are POSTed) before starting; needs --agent-secret.
    #[arg(long, requires = "agent_secret")]
    agent_endpoint: Option<String>,
    /// The endpoint's signing secret (Standard Webhooks, `whsec_...` or raw).
    #[arg(long, requires = "agent_endpoint")]
    agent_secret: Option<String>,
}

/// Opens the data directory, saves the agent endpoint when given, starts the delivery worker
/// and the server, prints where it listens and runs until a signal asks it to stop; requests in
/// flight get a few seconds to finish and a delivery being sent gives back its claim first.
/// A signal during start-up (a scan that takes long) stops it too, and nothing stuck in a
/// blocking call keeps the process alive afterwards (see [`App::block_on`]).
pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let options = AppOptions { skills_dir: args.skills_dir, ..crate::workspace::options(paths::data_dir()?) };
    App::block_on(async {
        let stopped = stop_signal()?;
        tokio::pin!(stopped);
        let host = tokio::select! {
            host = Host::start(options, args.port) => host?,
            _ = &mut stopped => return Ok(ExitCode::SUCCESS),
        };
        let served = tokio::select! {
            served = announce(&host, args.agent_endpoint.zip(args.agent_secret)) => served,
            _ = &mut stopped => Ok(()),
        };
        if served.is_ok() {
            stopped.await;
        }
        host.stop().await;
        served.map(|()| ExitCode::SUCCESS)
    })
}

/// Saves the endpoint when given, checks the API listens, waits for the first scan and prints
/// `listening on URL`.
async fn announce(host: &Host, endpoint: Option<(String, String)>) -> anyhow::Result<()> {
    if let Some((url, secret)) = endpoint {
        let input = EndpointInput {
            url,
            secret: Some(secret),
            timeout_secs: None,
            max_attempts: None,
            enabled: true,
        };
        host.app().set_endpoint(input).await?;
    }
    let url = match host.api_status().await {
        ApiStatus::Listening { url } => url,
        ApiStatus::Failed { error } => return Err(error.into()),
    };
    host.app().scanned().await?;
    println!("listening on {url}");
    std::io::stdout().flush()?;
    Ok(())
}

/// Resolves on SIGINT or SIGTERM (`serve` and `mcp` stop on either).
#[cfg(unix)]
pub(crate) fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = interrupt.recv() => {}
        }
    })
}

/// See the Unix version: Ctrl-C only.
#[cfg(not(unix))]
pub(crate) fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}
