//! Writing an inspected package: staging it beside the skills directory and renaming it into
//! place. The untrusted-zip inspection itself lives with the packages (`skillcase_skill::archive`);
//! the one import pipeline that uses both is [`crate::Library::import_path`].

pub mod extract;

pub use extract::{install, install_in, stage, stage_keeping_exec_bits, staging_parent, StagedSkill};
pub use skillcase_skill::archive::{inspect, inspect_bytes, max_archive_bytes, ArchiveError};
