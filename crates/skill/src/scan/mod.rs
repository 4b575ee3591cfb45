//! The security scan: what in a skill could harm the person or the agent that loads it, found
//! in the package's files before anything runs. Secrets left in files, download-and-run lines,
//! hidden or bidirectional Unicode, instructions hidden from the reader or aimed at overriding the
//! agent, suspicious links and executable bits. It reads an in-memory [`Package`], so a folder, a
//! zip under inspection and a stored version are scanned by the same code.
//!
//! Every rule has a stable code, a category and a severity in [`rules::RULES`]
//! (`docs/finding-codes.md` lists them). A `critical` finding is one an importer should never meet
//! by accident: the import refuses it unless the workspace policy allows it.

mod exec_bits;
mod instructions;
mod links;
pub mod measure;
mod remote_exec;
pub mod rules;
mod secrets;
mod text;
mod unicode;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::finding::{Finding, Severity};
use crate::package::Package;
pub use rules::{rule, Rule, RULES};
use text::Text;

/// How bad a scan finding is. `critical` and `error` fail `skillcase scan`; `critical` also
/// refuses an import unless the policy allows it; `warning` is for a person to look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ScanSeverity {
    Critical,
    Error,
    Warning,
}

impl ScanSeverity {
    /// The name used in text output and in docs.
    pub fn as_str(self) -> &'static str {
        match self {
            ScanSeverity::Critical => "critical",
            ScanSeverity::Error => "error",
            ScanSeverity::Warning => "warning",
        }
    }
}

/// What kind of danger a rule looks for; precision and recall are measured per category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Category {
    /// API keys, tokens and private keys written into a file.
    Secrets,
    /// Fetching code and running it in one step (`curl … | sh`, base64 into a shell, `iex`).
    RemoteExec,
    /// Characters a reader cannot see: bidirectional controls, zero-width and tag characters.
    HiddenUnicode,
    /// Instructions hidden in comments or aimed at overriding the agent's own.
    HiddenInstructions,
    /// Links that hide where they go: raw IPs, shorteners, punycode, text naming another site.
    SuspiciousLinks,
    /// Executable bits on files that are not scripts, and native executables.
    ExecBits,
}

impl Category {
    /// Every category, in the order reports list them.
    pub const ALL: [Category; 6] = [
        Category::Secrets,
        Category::RemoteExec,
        Category::HiddenUnicode,
        Category::HiddenInstructions,
        Category::SuspiciousLinks,
        Category::ExecBits,
    ];

    /// The snake_case name (as in JSON).
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Secrets => "secrets",
            Category::RemoteExec => "remote_exec",
            Category::HiddenUnicode => "hidden_unicode",
            Category::HiddenInstructions => "hidden_instructions",
            Category::SuspiciousLinks => "suspicious_links",
            Category::ExecBits => "exec_bits",
        }
    }

    /// The category named `name` (as in JSON and folder names).
    pub fn from_name(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.as_str() == name)
    }
}

/// One thing the scan found: the rule's code, category and severity, where (file relative to the
/// skill root, 1-based line and column in characters where the finding is in text), what was
/// seen and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ScanFinding {
    pub code: String,
    pub category: Category,
    pub severity: ScanSeverity,
    pub file: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: String,
    pub hint: String,
}

impl ScanFinding {
    /// True for `critical` and `error`: the scan fails.
    pub fn is_error(&self) -> bool {
        self.severity != ScanSeverity::Warning
    }

    /// True for `critical`: an import refuses it unless the policy allows it.
    pub fn is_critical(&self) -> bool {
        self.severity == ScanSeverity::Critical
    }

    /// `file:line:column` for terminals.
    pub fn location(&self) -> String {
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!("{}:{l}:{c}", self.file),
            _ => self.file.clone(),
        }
    }

    /// The finding as a validation-style [`Finding`] (critical and error become errors), for
    /// reports that list both kinds, like a refused import's.
    pub fn to_finding(&self) -> Finding {
        let severity = if self.is_error() { Severity::Error } else { Severity::Warning };
        let mut finding = Finding::new(&self.code, severity, self.file.clone(), self.message.clone())
            .hint(self.hint.clone());
        finding.line = self.line;
        finding.column = self.column;
        finding
    }
}

/// Files larger than this are not read as text (a data set, not instructions); their mode and
/// magic bytes are still checked.
const MAX_TEXT_BYTES: usize = 4 * 1024 * 1024;
/// At most this many findings of one code in one file, so a file full of one problem stays readable.
const MAX_PER_CODE_AND_FILE: usize = 20;

/// Scans every file of `pkg`; findings sorted by file, line and column.
pub fn scan_package(pkg: &Package) -> Vec<ScanFinding> {
    let mut out = Vec::new();
    for file in &pkg.files {
        let mut found = Vec::new();
        exec_bits::check(file, &mut found);
        if let Some(text) = text_of(&file.bytes) {
            let text = Text::new(&file.path, text);
            secrets::check(&text, &mut found);
            remote_exec::check(&text, &mut found);
            unicode::check(&text, &mut found);
            instructions::check(&text, &mut found);
            links::check(&text, &mut found);
        }
        out.extend(capped(found));
    }
    out.sort_by(|a, b| (&a.file, a.line, a.column, &a.code).cmp(&(&b.file, b.line, b.column, &b.code)));
    out
}

/// The bytes as text when they are UTF-8, small enough and not binary (no NUL byte).
fn text_of(bytes: &[u8]) -> Option<&str> {
    if bytes.len() > MAX_TEXT_BYTES || memchr::memchr(0, bytes).is_some() {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

fn capped(mut found: Vec<ScanFinding>) -> Vec<ScanFinding> {
    found.sort_by_key(|f| (f.line, f.column));
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    found.retain(|f| {
        let n = seen.entry(f.code.clone()).or_default();
        *n += 1;
        *n <= MAX_PER_CODE_AND_FILE
    });
    found
}

/// True when any finding is `critical` or `error`.
pub fn has_errors(findings: &[ScanFinding]) -> bool {
    findings.iter().any(ScanFinding::is_error)
}
