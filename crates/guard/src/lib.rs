//! The promise detector (SPEC B5, D1): does a message the agent is about to send promise that a
//! person will follow up? Pure text in, a verdict out; the decision that uses it (veto, auto-open)
//! lives with the cases. The contract and how the detector decides are in [`detect`].

pub mod analysis;
pub mod base;
pub mod corpus;
pub mod detect;
pub mod due;
pub mod eval;
pub mod features;
pub mod model;
mod normalize;
pub mod retrain;
mod spans;
mod text;
pub mod train;

pub use detect::{
    detect, detect_with, model, model_bytes, Detection, Language, Span, SpanRole, MAX_MESSAGE_CHARS,
};
