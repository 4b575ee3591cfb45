//! The one `--format text|json` switch every subcommand shares: text for people, JSON for machines.

/// How a subcommand prints its results and refusals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Readable lines (coloured on a terminal where the subcommand supports it).
    Text,
    /// One stable JSON document.
    Json,
}
