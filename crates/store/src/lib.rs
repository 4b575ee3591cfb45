//! Storage: the one SQLite database (opening it, its migrations, the single writer with group
//! commit and the read pool every caller goes through) and the content-addressed blob store that
//! keeps every file of every skill version, and the secrets kept beside the database rather than
//! in it.

pub mod blobs;
mod database;
pub mod db;
mod private;
pub mod secrets;
pub mod settings;

pub use database::{atomic, Database, LatestRead};
pub use db::DbError;
