//! The security scan: what in a skill could harm the person or the agent that loads it, found
//! in the package's files before anything runs. Secrets left in files, download-and-run lines,
//! hidden or bidirectional Unicode, bytes that hide text, instructions hidden from the reader or
//! aimed at overriding the agent, suspicious links and executable bits. It reads an in-memory
//! [`Package`], so a folder, a zip under inspection and a stored version are scanned by the same
//! code.
//!
//! Every byte it gates on is read: a file of any size, and one with NUL bytes or bytes that are
//! not UTF-8, is read as text (`text`: UTF-16 decoded, else each NUL byte as a space and other
//! bytes as U+FFFD), so no byte
//! makes a file unscanned; those bytes in a text file are a finding of their own, and so is a
//! file the scan did not get whole. Each rule costs time linear in the file: its patterns run in
//! the regex crate's linear-time automata, findings are placed on lines in one walk, and a rule
//! stops collecting a pattern's matches once it has as many as a report shows.
//!
//! Every rule has a stable code, a category and a severity in [`rules::RULES`]
//! (`docs/finding-codes.md` lists them). A `critical` finding is one an importer should never meet
//! by accident: the import refuses it unless the workspace policy allows it.

mod exec_bits;
mod hidden_bytes;
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
use crate::package::{Package, PackageFile};
pub use rules::{rule, Rule, RULES};
use text::{Decoded, Text};

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
    /// Bytes that hide text (NUL bytes, bytes that are not UTF-8, in a text file) and files the
    /// scan did not get whole.
    HiddenBytes,
    /// Instructions hidden in comments or aimed at overriding the agent's own.
    HiddenInstructions,
    /// Links that hide where they go: raw IPs, shorteners, punycode, text naming another site.
    SuspiciousLinks,
    /// Executable bits on files that are not scripts, and native executables.
    ExecBits,
}

impl Category {
    /// Every category, in the order reports list them.
    pub const ALL: [Category; 7] = [
        Category::Secrets,
        Category::RemoteExec,
        Category::HiddenUnicode,
        Category::HiddenBytes,
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
            Category::HiddenBytes => "hidden_bytes",
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

/// Scans every file of `pkg`; findings sorted by file, line and column.
pub fn scan_package(pkg: &Package) -> Vec<ScanFinding> {
    let mut out: Vec<ScanFinding> = pkg.files.iter().flat_map(scan_file).collect();
    out.sort_by(|a, b| (&a.file, a.line, a.column, &a.code).cmp(&(&b.file, b.line, b.column, &b.code)));
    out
}

/// Every rule over one file: whole-file findings first, then those in its text.
fn scan_file(file: &PackageFile) -> Vec<ScanFinding> {
    let mut out = Vec::new();
    exec_bits::check(file, &mut out);
    out.extend(hidden_bytes::incomplete(file));
    let native = out.iter().any(|f| f.code == "executable_binary");
    let decoded = Decoded::of(&file.bytes);
    let text = Text::new(&file.path, &decoded.text);
    let mut hits = Vec::new();
    if !native {
        hidden_bytes::check(&text, &decoded, &mut hits);
    }
    secrets::check(&text, &mut hits);
    remote_exec::check(&text, &mut hits);
    // In a binary file (an image, an archive) a few bytes here and there decode to invisible
    // characters by chance; hidden characters matter where the file is read as text.
    if decoded.is_clean() || text.is_text_file() {
        unicode::check(&text, &mut hits);
    }
    instructions::check(&text, &mut hits);
    links::check(&text, &mut hits);
    out.extend(text.place(hits));
    out
}

/// True when any finding is `critical` or `error`.
pub fn has_errors(findings: &[ScanFinding]) -> bool {
    findings.iter().any(ScanFinding::is_error)
}
