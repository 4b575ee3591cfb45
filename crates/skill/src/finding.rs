//! A validation finding: what is wrong, where, and how to fix it. Shared by the validator,
//! the zip inspector, the library and every boundary (CLI, IPC, HTTP).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Errors stop a skill from being served; warnings are advice and never block loading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Severity {
    Error,
    Warning,
}

/// One problem found in a skill or a package. `code` is stable snake_case (see
/// `docs/finding-codes.md`); `file` is relative to the skill root (`SKILL.md`, `references/a.md`)
/// or the zip entry name; `line`/`column` are 1-based where known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Finding {
    pub code: String,
    pub severity: Severity,
    pub file: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: String,
    pub hint: Option<String>,
}

impl Finding {
    /// An error finding on `file` without a position.
    pub fn error(code: &str, file: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Error, file, message)
    }

    /// A warning finding on `file` without a position.
    pub fn warning(code: &str, file: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Warning, file, message)
    }

    /// A finding whose severity depends on the caller (for example on the validation profile).
    pub fn new(code: &str, severity: Severity, file: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            code: code.to_string(),
            severity,
            file: file.into(),
            line: None,
            column: None,
            message: message.into(),
            hint: None,
        }
    }

    /// Points the finding at a 1-based line and column.
    pub fn at(mut self, line: u32, column: u32) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// Adds the fix hint shown to the author.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `SKILL.md:3:14` style location for terminals and logs.
    pub fn location(&self) -> String {
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!("{}:{l}:{c}", self.file),
            (Some(l), None) => format!("{}:{l}", self.file),
            _ => self.file.clone(),
        }
    }
}

/// True when none of the findings is an error (warnings allowed).
pub fn is_valid(findings: &[Finding]) -> bool {
    !findings.iter().any(Finding::is_error)
}
