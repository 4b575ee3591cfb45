//! The MCP server (SPEC D3): one more thin front end over the application layer, for the hosts
//! agents run in (Claude Desktop, Claude Code, Codex, Cursor, Gemini CLI, VS Code).
//!
//! - [`server`]: the server of one connection — capabilities and the methods' routing.
//! - [`extension`]: the Skills extension (`skills/list`, `skills/get`,
//!   `resources/directory/read`), over [`catalog`] (entries built from stored versions),
//!   [`frontmatter`] (YAML as JSON), [`uri`] (`skill://`) and [`mime`].
//! - [`resources`]: `resources/list` and byte-exact `resources/read`.
//! - [`tools`]: the agent's tools with the HTTP API's semantics and error codes; [`prompts`]:
//!   `skills_index` (level 1).
//! - [`notify`]: skill changes as resource notifications.
//! - [`stdio`]: `skillcase mcp`, over the bounded line reader of [`lines`]; [`http`]: Streamable
//!   HTTP at `/mcp`, mounted by the host under the local API's gate.
//! - [`limits`]: the caps that bound what any client can make the server hold or spend.
//! - [`error`]: protocol errors, refusals by a limit and tool errors, each with a stable code.

pub mod catalog;
pub mod error;
pub mod extension;
pub mod frontmatter;
pub mod http;
pub mod limits;
pub mod lines;
pub mod mime;
pub mod notify;
pub mod prompts;
pub mod resources;
pub mod server;
pub mod stdio;
pub mod tools;
/// `skill://` URIs, shared with the remote catalogs' client that reads them.
pub use skillcase_skill::uri;

pub use http::McpHttp;
pub use limits::McpLimits;
pub use server::SkillcaseMcp;
