//! The integration tests of `skillcase-skill` in one test binary, so the tree is linked once rather
//! than once per file: a module per area, `support` the helpers they share.

mod support;

mod catalog;
mod client_profiles;
mod conformance_skills_ref;
mod conformance_skills_ref_prompt;
mod corpus;
mod disclosure_corpus;
mod disclosure_golden;
mod finding_codes;
mod partial_reads;
mod scan_measure;
mod scan_rules;
mod triggers;
