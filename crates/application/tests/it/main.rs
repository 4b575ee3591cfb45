//! The integration tests of `skillcase-application` in one test binary, so the tree is linked once rather
//! than once per file: a module per area, `support` the helpers they share.

mod support;

mod assign;
mod catalogs;
mod export;
mod faster_hands;
mod find_case;
mod install;
mod install_cwd;
mod install_shared;
mod notes;
mod overdue;
mod quiet;
mod saved_replies;
mod settings;
mod sla;
