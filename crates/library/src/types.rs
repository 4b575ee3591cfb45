//! The values the library hands to the UI (IPC) and the API: pages of summaries, details,
//! versions, reports. Each derives `ts_rs::TS`, so the UI's types are generated from these.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use skillcase_skill::finding::Finding;
use skillcase_skill::model::{FileKind, SkillType};

/// Where the live folder of a skill comes from (SPEC A9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Origin {
    /// A folder in the skills directory with no catalog skill of the same name.
    Local,
    /// A shipped catalog skill, served read-only from the catalog folder.
    Catalog,
    /// A local folder that shadows a catalog skill ("catalog · locally overridden").
    Overridden,
}

impl Origin {
    /// `local`, `catalog` or `overridden`.
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Local => "local",
            Origin::Catalog => "catalog",
            Origin::Overridden => "overridden",
        }
    }
}

/// What made a version (SPEC A9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum VersionSource {
    Import,
    Edit,
    Watch,
    Catalog,
}

impl VersionSource {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            VersionSource::Import => "import",
            VersionSource::Edit => "edit",
            VersionSource::Watch => "watch",
            VersionSource::Catalog => "catalog",
        }
    }

    /// Reads a stored name back (unknown names read as `watch`, the most neutral source).
    pub fn parse(text: &str) -> Self {
        match text {
            "import" => VersionSource::Import,
            "edit" => VersionSource::Edit,
            "catalog" => VersionSource::Catalog,
            _ => VersionSource::Watch,
        }
    }
}

/// One file of a version: enough to restore it from the blob store and to show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ManifestEntry {
    pub path: String,
    #[ts(type = "number")]
    pub size: u64,
    pub sha256: String,
    pub kind: FileKind,
}

/// How many error and warning findings a skill has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Validity {
    pub errors: u32,
    pub warnings: u32,
}

impl Validity {
    /// Counts the findings by severity.
    pub fn of(findings: &[Finding]) -> Self {
        let errors = findings.iter().filter(|f| f.is_error()).count() as u32;
        Validity { errors, warnings: findings.len() as u32 - errors }
    }

    /// True without errors.
    pub fn is_valid(&self) -> bool {
        self.errors == 0
    }
}

/// One line of the skills list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SkillSummary {
    pub name: String,
    /// The description on one line (runs of whitespace collapsed).
    pub description: String,
    pub origin: Origin,
    /// The classification (SPEC A5); absent when SKILL.md does not parse.
    pub skill_type: Option<SkillType>,
    pub category: Option<String>,
    pub tags: Vec<String>,
    pub validity: Validity,
    pub hidden: bool,
    /// The live version, once recorded.
    #[ts(type = "number | null")]
    pub live_version: Option<i64>,
    /// When the live content last changed.
    pub updated_at: String,
}

/// Which skills by validity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ValidityFilter {
    /// No errors (warnings allowed).
    Valid,
    /// At least one error.
    Invalid,
    /// No errors and at least one warning.
    Warnings,
}

/// A page request for [`crate::Library::list`]. Empty fields do not filter.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SkillQuery {
    /// Case- and accent-insensitive words that must all occur (as word prefixes) in the name,
    /// description, category or tags.
    #[serde(default)]
    #[ts(optional)]
    pub text: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub origin: Option<Origin>,
    #[serde(default)]
    #[ts(optional)]
    pub kind: Option<SkillType>,
    #[serde(default)]
    #[ts(optional)]
    pub validity: Option<ValidityFilter>,
    /// Items to skip (default 0).
    #[serde(default)]
    #[ts(optional)]
    pub offset: Option<u32>,
    /// At most this many items (default and 0: a page of 100).
    #[serde(default)]
    #[ts(optional)]
    pub limit: Option<u32>,
}

/// One page of the skills list, sorted by name, and how many skills match in all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SkillPage {
    pub items: Vec<SkillSummary>,
    pub total: u32,
}

/// One recorded version of a skill.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct VersionInfo {
    #[ts(type = "number")]
    pub id: i64,
    pub name: String,
    pub content_hash: String,
    pub source: VersionSource,
    #[ts(type = "number | null")]
    pub forked_from: Option<i64>,
    pub created_at: String,
    pub validity: Validity,
    pub files: u32,
    #[ts(type = "number")]
    pub bytes: u64,
    /// True for the version the skill's pointer names.
    pub live: bool,
}

/// Everything the skill screen shows about one skill.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SkillDetail {
    pub summary: SkillSummary,
    /// Every finding of a full validation of the live folder.
    pub findings: Vec<Finding>,
    /// The live folder's files.
    pub manifest: Vec<ManifestEntry>,
    pub live_version: Option<VersionInfo>,
    /// Absolute path of the live folder.
    pub dir: String,
    /// True when the skill can be edited (local folders; catalog skills are read-only).
    pub editable: bool,
}

/// One catalog skill and how it stands in the library.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CatalogEntry {
    pub name: String,
    pub description: String,
    pub category: Option<String>,
    pub tags: Vec<String>,
    pub skill_type: Option<SkillType>,
    /// True when a local folder of the same name exists (installed or overriding).
    pub installed: bool,
    /// True when that local folder differs from the catalog's content.
    pub overridden: bool,
}

/// What an import did (or, for a dry run, would do), or why it was refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ImportReport {
    /// The skill name (absent when the archive was refused before its SKILL.md could be read).
    pub name: Option<String>,
    /// True when the skill folder was written.
    pub installed: bool,
    pub dry_run: bool,
    /// True when a folder of that name existed and was (or would be) replaced.
    pub replaced: bool,
    /// The version recorded (absent for a dry run or a refusal).
    pub version: Option<VersionInfo>,
    /// True when the content equals a version already recorded (no new version was made).
    pub unchanged: bool,
    pub files: Vec<ImportedFile>,
    /// Warnings on success; every finding (errors first) on refusal.
    pub findings: Vec<Finding>,
    /// Set on refusal: the stable code (`import_refused`, `import_security_refused` or
    /// `skill_name_invalid`).
    pub refused: Option<String>,
    /// The trigger cases whose verdict the import changes (empty on refusal), so a dry run can
    /// say which before the new version goes live.
    pub trigger_changes: Vec<crate::trigger_tests::CaseChange>,
}

/// One file of an imported package.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ImportedFile {
    pub path: String,
    pub kind: FileKind,
    #[ts(type = "number")]
    pub size: u64,
    /// The first 12 hex digits of the file's sha256.
    pub short_hash: String,
}

/// The change of one file between two versions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct FileDiff {
    pub path: String,
    pub change: FileChange,
    /// A unified diff for text files (absent for binaries and unchanged files).
    pub unified: Option<String>,
    /// The same changes as hunks of numbered lines, for the comparison view (empty for
    /// binaries and unchanged files).
    pub hunks: Vec<DiffHunk>,
    /// Lines added and removed in all hunks.
    pub added: u32,
    pub removed: u32,
    #[ts(type = "number | null")]
    pub old_size: Option<u64>,
    #[ts(type = "number | null")]
    pub new_size: Option<u64>,
    pub old_sha256: Option<String>,
    pub new_sha256: Option<String>,
}

/// One hunk of a text file's diff: its `@@ -a,b +c,d @@` header and its lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct DiffHunk {
    pub header: String,
    pub lines: Vec<DiffLine>,
}

/// One line of a hunk, with its number in the old and the new file (1-based; absent on the side
/// that does not have it). The text has no line ending.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct DiffLine {
    pub kind: DiffLineKind,
    pub text: String,
    pub old: Option<u32>,
    pub new: Option<u32>,
}

/// Whether a diff line is shared, added or removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum DiffLineKind {
    Context,
    Add,
    Del,
}

/// How a file differs between two versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum FileChange {
    Added,
    Removed,
    Modified,
    Unchanged,
}

/// Activations of one skill on one UTC day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct DayCount {
    /// `YYYY-MM-DD`.
    pub day: String,
    pub hard: u32,
    pub probe: u32,
}

/// What a blob collection removed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct GcReport {
    pub kept: u32,
    pub removed: u32,
    #[ts(type = "number")]
    pub freed_bytes: u64,
}
