//! Skill packages (SPEC A1–A7): the model, parsing, validation, classification, the three
//! disclosure levels and keyword matching.

pub mod archive;
pub mod classify;
pub mod clients;
pub mod config;
pub mod disclosure;
pub mod discover;
pub mod files;
pub mod finding;
pub mod frontmatter;
pub mod load;
pub mod matcher;
pub mod model;
pub mod package;
pub mod policy;
pub mod scan;
pub mod skill_dir;
pub mod tokens;
pub mod triggers;
pub mod uri;
pub mod validate;
pub mod yaml;
pub mod yaml_fast;
