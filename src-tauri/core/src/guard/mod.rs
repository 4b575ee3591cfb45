//! The promise guardrail (SPEC B5): before the agent sends a message, find out whether it
//! promises that a person will follow up, and refuse it while the conversation has no open case.

pub mod before_send;
pub mod detect;
mod normalize;
mod rules;

pub use before_send::{before_send, BeforeSend, GuardError, Verdict, VerdictKind};
pub use detect::{detect, Detection, Language};
