//! The integration tests of `skillcase-mcp` in one test binary, so the tree is linked once rather
//! than once per file: a module per area.

mod agent_tools;
mod connected_clients;
mod http_limits;
mod skills_extension;
