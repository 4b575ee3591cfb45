//! `skillcase serve`: the local agent API (and the delivery of replies) without the window.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use skillcase_application::{paths, settings};
use skillcase_cases::endpoint::{set_endpoint, EndpointInput};
use skillcase_host::{Service, ServiceOptions};
use skillcase_store::db;

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
/// flight are finished and a delivery being sent gives back its claim first.
pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let data_dir = paths::data_dir()?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let conn = db::open(&data_dir.join(db::DATABASE_FILE))?;
        if let (Some(url), Some(secret)) = (args.agent_endpoint, args.agent_secret) {
            let input = EndpointInput {
                url,
                secret: Some(secret),
                timeout_secs: None,
                max_attempts: None,
                enabled: true,
            };
            set_endpoint(&conn, input)?;
        }
        let skills_dir = match args.skills_dir {
            Some(dir) => dir,
            None => settings::effective_skills_dir(&conn, &data_dir)?,
        };
        let port = match args.port {
            Some(port) => port,
            None => settings::api_port(&conn)?,
        };
        let policy = settings::policy(&conn)?;
        drop(conn);
        let options = ServiceOptions {
            data_dir,
            skills_dir,
            catalog_dir: paths::catalog_dir(),
            policy,
            port,
            events: Default::default(),
        };
        let stopped = stop_signal()?;
        let service = Service::start(options).await?;
        service.scanned().await;
        println!("listening on http://127.0.0.1:{}", service.port());
        std::io::stdout().flush()?;
        stopped.await;
        service.stop().await.context("the service stopped with an error")?;
        Ok(ExitCode::SUCCESS)
    })
}

/// Registers SIGINT (Ctrl-C) and, on Unix, SIGTERM before the server announces itself, so a
/// signal sent right after the `listening on` line is never missed; the future resolves at the first.
#[cfg(unix)]
fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
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
fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}
