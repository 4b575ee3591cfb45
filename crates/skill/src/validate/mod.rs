//! SPEC A4: one validator, three profiles. [`validate_package`] checks an in-memory [`Package`]
//! (from a folder or a zip) and returns the [`Skill`] it describes — whenever SKILL.md parsed at
//! all — beside every finding. A skill with only warnings is valid.

mod body;
pub mod clients;
mod codes;
mod contents;
mod fields;

use std::path::PathBuf;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::classify;
use crate::config::{self, Source, CONFIG_FILE};
use crate::files;
use crate::triggers;

use crate::finding::{self, Finding, Severity};
use crate::frontmatter::{self, Frontmatter};
use crate::model::{Skill, SkillConfig, SkillFile, SkillType};
use crate::package::Package;
use crate::policy::Policy;
use crate::yaml::{Key, Node};
pub use codes::ALL_CODES;
pub(crate) use contents::CLAUDE_MAX_BYTES;
pub use fields::is_skill_name;

/// Which rule set applies (SPEC A4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Profile {
    /// The Agent Skills specification, as the reference validator `skills-ref` reads it.
    Standard,
    /// Anthropic's stricter upload rules.
    Claude,
    /// `standard` plus the product extensions, import limits and executable policy.
    #[default]
    Skillcase,
    /// What Claude Code's loader reads: its extra frontmatter keys and their values, and its
    /// skill listing, which cuts an entry's description and `when_to_use` at 1,536 characters.
    #[serde(rename = "claude-code")]
    ClaudeCode,
    /// What OpenAI Codex's loader reads: `name`, `description`, `metadata.short-description`
    /// (each refused past its limit) and the optional `agents/openai.yaml`.
    Codex,
}

impl Profile {
    /// The name used on the command line and in settings.
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Standard => "standard",
            Profile::Claude => "claude",
            Profile::Skillcase => "skillcase",
            Profile::ClaudeCode => "claude-code",
            Profile::Codex => "codex",
        }
    }
}

impl FromStr for Profile {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "standard" => Ok(Profile::Standard),
            "claude" => Ok(Profile::Claude),
            "skillcase" => Ok(Profile::Skillcase),
            "claude-code" => Ok(Profile::ClaudeCode),
            "codex" => Ok(Profile::Codex),
            other => Err(format!(
                "unknown profile `{other}` (expected standard, claude, skillcase, claude-code or codex)"
            )),
        }
    }
}

/// The result of validating one package: the skill (when SKILL.md could be parsed) and the
/// findings, errors first then warnings, each group in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Validated {
    pub skill: Option<Skill>,
    pub findings: Vec<Finding>,
}

impl Validated {
    /// True when there is a skill and no finding is an error.
    pub fn is_valid(&self) -> bool {
        self.skill.is_some() && finding::is_valid(&self.findings)
    }

    /// A result with no skill, only the given findings.
    pub fn failed(findings: Vec<Finding>) -> Self {
        Validated { skill: None, findings }
    }
}

/// How much of the package the checks may look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every file is present: all rules run.
    Full,
    /// Only SKILL.md's frontmatter and `skill.config.yaml` were read (the fast level-1 path):
    /// rules about the body and the other files are skipped.
    Index { has_scripts: bool },
}

/// How much of a file the rules of a profile read, so a loader that only validates reads no more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// The whole content (SKILL.md, `skill.config.yaml`).
    All,
    /// The content up to and including its n-th line break (all of it when it has fewer).
    Lines(usize),
    /// The first n bytes; 0 when only the file's path, size and mode matter.
    Head(usize),
}

/// What the rules of `profile` read of the file at `path`: SKILL.md and the config whole, a
/// reference up to the line that makes it "long" (its table of contents sits above), and of any
/// other file only the shebang bytes the `skillcase` executable check looks at.
pub fn needs(path: &str, profile: Profile) -> Needs {
    match path {
        "SKILL.md" | "skill.md" | CONFIG_FILE => Needs::All,
        triggers::CASES_FILE if profile == Profile::Skillcase => Needs::All,
        clients::OPENAI_YAML if profile == Profile::Codex => Needs::All,
        _ if path.starts_with("references/") => Needs::Lines(body::REFERENCE_LINES_READ),
        _ if profile == Profile::Skillcase => Needs::Head(contents::SHEBANG_BYTES),
        _ => Needs::Head(0),
    }
}

/// Validates a whole package under `profile`. The returned skill's `dir` is empty; the folder
/// loader fills it in.
pub fn validate_package(pkg: &Package, profile: Profile, policy: &Policy) -> Validated {
    validate_scoped(pkg, profile, policy, Scope::Full)
}

/// Validates with an explicit [`Scope`]; the loader's level-1 path uses `Scope::Index`.
pub fn validate_scoped(pkg: &Package, profile: Profile, policy: &Policy, scope: Scope) -> Validated {
    let mut findings = Vec::new();
    let Some((file, text)) = skill_md(pkg, &mut findings) else {
        return Validated::failed(findings);
    };
    let mut fm = match frontmatter::parse(text) {
        Ok(fm) => fm,
        Err(fatal) => {
            findings.extend(rename(fatal, file));
            return Validated::failed(sorted(findings));
        }
    };
    let mut config_findings = Vec::new();
    let config_entries = config_entries(pkg, &mut config_findings);
    let ctx = Ctx { pkg, profile, policy, fm: &fm, file, scope, config_entries: config_entries.as_deref() };
    let derived = ctx.check(config_findings, &mut findings);
    // The rules are done with the frontmatter, so the skill takes its strings instead of copies.
    let fields = fields::take(&mut fm);
    let skill = Skill {
        name: fields.name.or_else(|| pkg.folder_name.clone()).unwrap_or_default(),
        description: fields.description,
        license: fields.license,
        compatibility: fields.compatibility,
        metadata: fields.metadata,
        allowed_tools: fields.allowed_tools,
        dir: PathBuf::new(),
        body: fm.body,
        config: derived.config,
        skill_type: derived.skill_type,
        files: derived.files,
    };
    Validated { skill: Some(skill), findings: sorted(findings) }
}

/// Everything a rule may read.
struct Ctx<'a> {
    pkg: &'a Package,
    profile: Profile,
    policy: &'a Policy,
    fm: &'a Frontmatter,
    /// `SKILL.md`, or `skill.md` when only the lowercase name exists.
    file: &'static str,
    scope: Scope,
    /// `skill.config.yaml`'s top-level entries, parsed once (`None` when absent or unreadable).
    config_entries: Option<&'a [(Key, Node)]>,
}

/// What the rules work out beyond the frontmatter's own text: the merged config, the type and
/// the file manifest.
struct Derived {
    config: SkillConfig,
    skill_type: SkillType,
    files: Vec<SkillFile>,
}

impl Ctx<'_> {
    fn check(&self, config_findings: Vec<Finding>, out: &mut Vec<Finding>) -> Derived {
        out.extend(rename(self.fm.findings.clone(), self.file));
        self.encoding(out);
        fields::check(self, out);
        fields::check_keys(self, out);
        let config = self.config(config_findings, out);
        let has_scripts = match self.scope {
            Scope::Full => self.pkg.files.iter().any(|f| f.path.starts_with("scripts/")),
            Scope::Index { has_scripts } => has_scripts,
        };
        let (skill_type, class_findings) = classify::classify(&config, has_scripts, self.type_location());
        if self.profile == Profile::Skillcase {
            out.extend(class_findings);
        }
        clients::check_frontmatter(self, out);
        if self.scope == Scope::Full {
            contents::check(self, out);
            body::check(self, &config, out);
            clients::check_files(self, out);
            if self.profile == Profile::Skillcase {
                out.extend(triggers::package_cases(self.pkg).map(|(_, found)| found).unwrap_or_default());
            }
        }
        Derived {
            config,
            skill_type,
            files: match self.scope {
                Scope::Full => self.manifest(),
                Scope::Index { .. } => Vec::new(),
            },
        }
    }

    fn encoding(&self, out: &mut Vec<Finding>) {
        if self.fm.bom {
            let f = Finding::new(
                "utf8_bom",
                if self.profile == Profile::Skillcase { Severity::Warning } else { Severity::Error },
                self.file,
                "SKILL.md starts with a UTF-8 byte-order mark (BOM)",
            );
            out.push(f.at(1, 1).hint("save the file as UTF-8 without BOM"));
        }
        if self.profile == Profile::Skillcase {
            if let Some(f) = self.pkg.file(self.file).and_then(|f| nul_byte(self.file, &f.bytes)) {
                out.push(f);
            }
        }
        if self.fm.crlf && self.profile == Profile::Skillcase {
            out.push(
                Finding::warning("crlf_line_endings", self.file, "SKILL.md uses Windows (CRLF) line endings")
                    .hint("save the file with LF line endings; Skillcase reads both"),
            );
        }
    }

    /// The A3 config: read in every profile (the skill needs it), reported only in `skillcase`.
    fn config(&self, found: Vec<Finding>, out: &mut Vec<Finding>) -> SkillConfig {
        let fm = Source { file: self.file, entries: &self.fm.entries };
        let cfg_src = self.config_entries.map(|e| Source { file: CONFIG_FILE, entries: e });
        let (cfg, more) = config::extract(fm, cfg_src);
        if self.profile == Profile::Skillcase {
            out.extend(found);
            out.extend(more);
        }
        cfg
    }

    fn type_location(&self) -> Option<classify::TypeLocation<'static>> {
        let in_config = self
            .config_entries
            .and_then(|entries| entries.iter().find(|(k, _)| k.name == "type"))
            .map(|(k, _)| (CONFIG_FILE, k.line, k.column));
        in_config.or_else(|| self.fm.key("type").map(|k| (self.file, k.line, k.column)))
    }

    fn manifest(&self) -> Vec<SkillFile> {
        self.pkg
            .files
            .iter()
            .map(|f| SkillFile {
                path: f.path.clone(),
                size: f.size,
                kind: files::kind_of(&f.path),
                infrastructure: files::is_infrastructure(&f.path),
            })
            .collect()
    }
}

/// `skill.config.yaml`'s top-level entries when the package has one that parses; its problems go
/// to `out`.
fn config_entries(pkg: &Package, out: &mut Vec<Finding>) -> Option<Vec<(Key, Node)>> {
    let file = pkg.file(CONFIG_FILE)?;
    let Ok(text) = std::str::from_utf8(&file.bytes) else {
        out.push(not_utf8(CONFIG_FILE));
        return None;
    };
    match config::parse_config_file(text, out) {
        Ok(entries) => Some(entries),
        Err(f) => {
            out.push(f);
            None
        }
    }
}

/// SKILL.md's name and text, or the finding that explains why there is none.
fn skill_md<'p>(pkg: &'p Package, out: &mut Vec<Finding>) -> Option<(&'static str, &'p str)> {
    let (file, entry) = match (pkg.file("SKILL.md"), pkg.file("skill.md")) {
        (Some(f), _) => ("SKILL.md", f),
        (None, Some(f)) => {
            out.push(
                Finding::warning("skill_md_lowercase", "skill.md", "the skill file is named `skill.md`")
                    .hint("rename it to `SKILL.md` (upper case), the name every agent looks for"),
            );
            ("skill.md", f)
        }
        (None, None) => {
            out.push(
                Finding::error("skill_md_missing", "SKILL.md", "the package has no SKILL.md")
                    .hint("add a SKILL.md with `---`, `name:`, `description:`, `---` and the instructions"),
            );
            return None;
        }
    };
    match std::str::from_utf8(&entry.bytes) {
        Ok(text) => Some((file, text)),
        Err(_) => {
            out.push(not_utf8(file));
            None
        }
    }
}

/// A NUL byte in SKILL.md, at its first: no instruction needs one, editors and other scanners stop
/// at it, and the agent reads on.
fn nul_byte(file: &str, bytes: &[u8]) -> Option<Finding> {
    let at = memchr::memchr(0, bytes)?;
    let before = &bytes[..at];
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
    let finding = Finding::error("nul_byte", file, format!("{file} holds a NUL byte"))
        .at(u32::try_from(line).unwrap_or(u32::MAX), u32::try_from(column).unwrap_or(u32::MAX))
        .hint("delete the NUL byte; SKILL.md is plain UTF-8 text");
    Some(finding)
}

fn not_utf8(file: &str) -> Finding {
    Finding::error("not_utf8", file, format!("{file} is not valid UTF-8 text"))
        .hint("save the file with UTF-8 encoding")
}

fn rename(findings: Vec<Finding>, file: &str) -> Vec<Finding> {
    findings
        .into_iter()
        .map(|mut f| {
            if f.file == "SKILL.md" {
                f.file = file.to_string();
            }
            f
        })
        .collect()
}

/// Errors first, then warnings; within each, by file, line and column (stable otherwise).
fn sorted(mut findings: Vec<Finding>) -> Vec<Finding> {
    findings.sort_by(|a, b| {
        (a.severity, &a.file, a.line.unwrap_or(0), a.column.unwrap_or(0)).cmp(&(
            b.severity,
            &b.file,
            b.line.unwrap_or(0),
            b.column.unwrap_or(0),
        ))
    });
    findings
}

#[cfg(test)]
mod tests;
