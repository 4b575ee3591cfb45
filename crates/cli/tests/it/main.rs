//! The integration tests of `skillcase-cli` in one test binary, so the tree is linked once rather
//! than once per file: a module per area, `support` the helpers they share.

mod support;

mod agent_api_docs;
mod cases_crash;
mod cli_agents;
mod cli_basics;
mod cli_cases;
mod cli_cases_assign;
mod cli_catalogs;
mod cli_clients;
mod cli_disclosure;
mod cli_endpoint;
mod cli_export;
mod cli_gc_blobs;
mod cli_git_sources;
mod cli_guard;
mod cli_guard_teach;
mod cli_hostile;
mod cli_import;
mod cli_install;
mod cli_scan;
mod cli_serve;
mod cli_serve_watch;
mod cli_settings;
mod cli_skills_interop;
mod cli_team;
mod cli_test;
mod cli_validate;
mod library_crash;
mod mcp_clients;
mod mcp_http_gate;
mod team_crash;
