//! The integration tests of `skillcase-library` in one test binary, so the tree is linked once rather
//! than once per file: a module per area, `support` the helpers they share.

mod support;

mod archive_attacks;
mod archive_import;
mod hostile_files;
mod hostile_sizes;
mod import_security;
mod library_activations;
mod library_changes;
mod library_scan;
mod library_triggers;
mod library_watching;
mod remote;
mod watch;
