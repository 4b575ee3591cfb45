//! The integration tests of `skillcase-host` in one test binary, so the tree is linked once rather
//! than once per file: a module per area.

mod host_stop;
mod mcp_setup;
mod mcp_setup_from_env;
