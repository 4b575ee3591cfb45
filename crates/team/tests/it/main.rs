//! What only the team database has: its schema and migrations, live updates over LISTEN/NOTIFY,
//! the copy of a desktop's inbox into it, a claim passing over the rows another instance has
//! locked, and inbox reads that use indexes at scale. Every case behaviour both databases share
//! is tested once, on both, in `skillcase-cases`' suite.

mod support;

mod claims;
mod copy;
mod live;
mod people;
mod reads;
mod schema;
mod typing;
