//! The parsed skill, as every other module sees it: the loader (`skill::load`) builds it from a
//! folder, the disclosure renderer and the matcher read it, the library stores it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// SPEC A5: how the agent uses the skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
#[ts(export)]
pub enum SkillType {
    /// Instructions only, read with `read_skill`.
    Prompt,
    /// Has an `interface`; run with `execute_skill`.
    ComputeEntry,
    /// Has `scripts/`; read, then run with a shell.
    ComputeToolkit,
}

impl SkillType {
    /// The name used in files and the index (`prompt`, `compute-entry`, `compute-toolkit`).
    pub fn as_str(self) -> &'static str {
        match self {
            SkillType::Prompt => "prompt",
            SkillType::ComputeEntry => "compute-entry",
            SkillType::ComputeToolkit => "compute-toolkit",
        }
    }
}

/// SPEC A9: what a file in a skill is, from where it sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum FileKind {
    SkillMd,
    Reference,
    Asset,
    Template,
    Script,
    Config,
}

/// One file of a skill, path relative to the skill root with `/` separators.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SkillFile {
    pub path: String,
    #[ts(type = "number")]
    pub size: u64,
    pub kind: FileKind,
    /// Infrastructure files (A1) are stored but never offered to the agent as references.
    pub infrastructure: bool,
}

/// SPEC A3 `matcher`: when a customer message activates the skill.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Matcher {
    pub any_keywords: Vec<String>,
    #[serde(default)]
    pub probe_keywords: Vec<String>,
}

/// SPEC A3 `references.routes[]`: a task keyword that adds required references.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Route {
    #[serde(rename = "match")]
    pub match_: Vec<String>,
    pub required_refs: Vec<String>,
}

/// SPEC A3 `references`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct References {
    #[serde(default)]
    pub required: Vec<String>,
    #[serde(default)]
    pub routes: Vec<Route>,
}

/// One input of a `compute-entry` interface.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct InputField {
    #[serde(rename = "type")]
    pub type_: String,
    #[serde(default)]
    pub required: bool,
}

/// SPEC A3 `interface` (compute-entry skills). Inputs keep their declared order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Interface {
    #[serde(default)]
    pub input: IndexMap<String, InputField>,
}

/// SPEC A3: the product extensions, merged from `skill.config.yaml` (wins) and the frontmatter.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SkillConfig {
    /// Explicit `type`, when declared (must agree with the contents).
    #[serde(rename = "type")]
    pub type_: Option<SkillType>,
    pub category: Option<String>,
    pub tags: Vec<String>,
    /// `disable-model-invocation`: true hides the skill from the index.
    pub hidden: bool,
    pub matcher: Option<Matcher>,
    pub references: References,
    pub interface: Option<Interface>,
}

/// A skill as loaded from its folder: the standard fields, the extensions, the body and the
/// file manifest. Loading never fails; problems are reported as findings beside it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Skill {
    /// Frontmatter `name` (falls back to the folder name when missing, so it can be listed).
    pub name: String,
    pub description: String,
    pub license: Option<String>,
    pub compatibility: Option<String>,
    pub metadata: BTreeMap<String, String>,
    pub allowed_tools: Option<String>,
    /// Absolute path of the skill folder.
    #[ts(type = "string")]
    pub dir: PathBuf,
    /// The Markdown after the frontmatter, line endings normalised to `\n`.
    pub body: String,
    pub config: SkillConfig,
    /// The classification of SPEC A5 (derived from the contents).
    pub skill_type: SkillType,
    /// Every file of the skill, sorted by path.
    pub files: Vec<SkillFile>,
}

impl Skill {
    /// True when the skill is left out of the level-1 index.
    pub fn is_hidden(&self) -> bool {
        self.config.hidden
    }
}
