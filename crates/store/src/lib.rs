//! Storage: the one SQLite database (opening it, its migrations) and the content-addressed blob
//! store that keeps every file of every skill version.

pub mod blobs;
pub mod db;
