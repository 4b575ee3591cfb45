//! The integration tests of `skillcase-guard` in one test binary, so the tree is linked once rather
//! than once per file: a module per area.

mod guard_eval;
mod model_reproducible;
