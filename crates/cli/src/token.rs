//! `skillcase token`: print the local API's bearer token, or replace it.

use std::process::ExitCode;

use skillcase_application::paths;
use skillcase_application::token::{self, TOKEN_FILE};

/// Print the bearer token the agent must send (creating it on first use).
#[derive(Debug, clap::Args)]
pub struct TokenArgs {
    /// Replace the token with a new random one; a running server refuses the old one at once.
    #[arg(long)]
    rotate: bool,
}

/// Prints the token in force (after rotating it when asked), alone on its line, for
/// `TOKEN=$(skillcase token)`.
pub fn run(args: TokenArgs) -> anyhow::Result<ExitCode> {
    let path = paths::data_dir()?.join(TOKEN_FILE);
    let token = if args.rotate { token::rotate_file(&path)? } else { token::load_or_create(&path)? };
    println!("{}", token.as_str());
    Ok(ExitCode::SUCCESS)
}
