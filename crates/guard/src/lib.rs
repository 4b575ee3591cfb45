//! The promise detector (SPEC B5, D1): does a message the agent is about to send promise that a
//! person will follow up? Pure text in, a verdict out; the decision that uses it (veto, auto-open)
//! lives with the cases.

pub mod detect;
pub mod due;
mod normalize;
mod rules;

pub use detect::{detect, Detection, Language};
