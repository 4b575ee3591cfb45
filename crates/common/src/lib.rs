//! What every Skillcase crate shares and none owns: the one error shape that crosses every
//! boundary, the bus on which the domain announces changes, the clock, durable renames and the
//! parallel map the engine spreads per-skill work with.

pub mod clock;
pub mod durable;
pub mod error;
pub mod events;
pub mod parallel;

pub use error::{Coded, ErrorBody};
