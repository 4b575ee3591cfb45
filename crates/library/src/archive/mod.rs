//! Writing an inspected package: staging it beside the skills directory and renaming it into
//! place (`extract`), and the standalone import of a zip into a plain folder (`import`). The
//! untrusted-zip inspection itself lives with the packages (`skillcase_skill::archive`).

pub mod extract;
pub mod import;

pub use extract::{install, stage, StagedSkill};
pub use import::{import_zip, Imported};
pub use skillcase_skill::archive::{inspect, inspect_bytes, max_archive_bytes, ArchiveError};
