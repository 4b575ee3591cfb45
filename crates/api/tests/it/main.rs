//! The integration tests of `skillcase-api` in one test binary, so the tree is linked once rather
//! than once per file: a module per area, `support` the helpers they share.

mod support;

mod api_cases;
mod api_guard;
mod api_hostile_clients;
mod api_server;
mod api_skills;
