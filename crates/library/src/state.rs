//! The library's in-memory view: one entry per skill folder (local and catalog), each with the
//! level-1 part of its skill, its validity and its live version. Listing, the index and matching
//! read only this; writes and the watcher replace one entry at a time.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::types::{Origin, SkillSummary, Validity};
use skillcase_skill::matcher::{words, KeywordIndex};
use skillcase_skill::model::Skill;
use skillcase_skill::validate::Validated;

/// One skill folder as the library knows it.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The folder name: the skill's key.
    pub name: String,
    /// Absolute path of the folder.
    pub dir: PathBuf,
    /// The skill without body and files (what level 1 and matching need); `None` when SKILL.md
    /// does not parse. Behind a pointer, shared with the served set: the map holds entries in
    /// nodes of eleven, mostly half full, where a skill inline made each empty slot cost a whole
    /// skill; and the served set held a second copy of every skill.
    pub skill: Option<Arc<Skill>>,
    pub validity: Validity,
    pub version: Option<i64>,
    pub updated_at: String,
}

impl Entry {
    /// An entry from a validation of the folder at `dir`.
    pub fn new(
        name: &str,
        dir: &Path,
        validated: Validated,
        version: Option<i64>,
        updated_at: String,
    ) -> Self {
        let validity = Validity::of(&validated.findings);
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        let skill = validated.skill.map(|mut skill| {
            skill.body = String::new();
            skill.files = Vec::new();
            skill.dir = dir.clone();
            Arc::new(skill)
        });
        Entry { name: name.to_string(), dir, skill, validity, version, updated_at }
    }

    /// True when the agent may be given this skill: it parsed and has no error.
    pub fn is_servable(&self) -> bool {
        self.skill.is_some() && self.validity.is_valid()
    }
}

/// What the agent is served right now, built once per change and shared.
#[derive(Debug, Default)]
pub struct Served {
    /// Live, valid skills, sorted by name (the index hides the hidden ones itself), shared with
    /// the entries they come from.
    pub skills: Vec<Arc<Skill>>,
    pub keywords: KeywordIndex,
    /// Each served skill's live version.
    pub versions: HashMap<String, Option<i64>>,
}

/// Every known folder and whether the skills directory can be read.
#[derive(Debug, Default)]
pub struct State {
    pub local: BTreeMap<String, Entry>,
    pub catalog: BTreeMap<String, Entry>,
    /// `Some(reason)` while the skills directory is unavailable.
    pub unavailable: Option<String>,
    /// `Some(words)` while the watcher cannot watch some folders (it rescans them instead).
    pub watch_note: Option<String>,
    served: Option<Arc<Served>>,
    listed: Option<Arc<Vec<Listed>>>,
}

/// One line of the skills list with the words a search matches it on, kept until the library
/// changes so a keystroke in the search box filters instead of re-reading every skill. The words
/// are worked out on the first search, not on the start-up path.
#[derive(Debug)]
pub struct Listed {
    pub summary: SkillSummary,
    words: OnceLock<Vec<String>>,
}

impl Listed {
    /// The name, description, category and tags as [`words`]: normalised, accents removed.
    pub fn words(&self) -> &[String] {
        self.words.get_or_init(|| {
            let summary = &self.summary;
            let text =
                [summary.name.as_str(), &summary.description, summary.category.as_deref().unwrap_or("")]
                    .into_iter()
                    .chain(summary.tags.iter().map(String::as_str))
                    .collect::<Vec<_>>()
                    .join(" ");
            words(&text)
        })
    }
}

impl State {
    /// The live entry for `name` and its origin: the local folder wins over the catalog's.
    pub fn live(&self, name: &str) -> Option<(&Entry, Origin)> {
        match (self.local.get(name), self.catalog.contains_key(name)) {
            (Some(entry), true) => Some((entry, Origin::Overridden)),
            (Some(entry), false) => Some((entry, Origin::Local)),
            (None, _) => self.catalog.get(name).map(|entry| (entry, Origin::Catalog)),
        }
    }

    /// Every live entry in name order.
    pub fn live_entries(&self) -> Vec<(&Entry, Origin)> {
        let mut names: Vec<&String> = self.local.keys().chain(self.catalog.keys()).collect();
        names.sort();
        names.dedup();
        names.into_iter().filter_map(|n| self.live(n)).collect()
    }

    /// Drops the cached served set and list (after any change).
    pub fn changed(&mut self) {
        self.served = None;
        self.listed = None;
    }

    /// Every live skill's list line in name order, built on first use after a change.
    pub fn listed(&mut self) -> Arc<Vec<Listed>> {
        if let Some(listed) = &self.listed {
            return Arc::clone(listed);
        }
        let lines =
            self.live_entries().into_iter().map(|(entry, origin)| listed(summary(entry, origin))).collect();
        let listed = Arc::new(lines);
        self.listed = Some(Arc::clone(&listed));
        listed
    }

    /// The served set, built on first use after a change.
    pub fn served(&mut self) -> Arc<Served> {
        if let Some(served) = &self.served {
            return Arc::clone(served);
        }
        let mut skills = Vec::new();
        let mut versions = HashMap::new();
        for (entry, _) in self.live_entries() {
            if let (true, Some(skill)) = (entry.is_servable(), &entry.skill) {
                skills.push(Arc::clone(skill));
                versions.insert(entry.name.clone(), entry.version);
            }
        }
        let keywords = KeywordIndex::new(&skills);
        let served = Arc::new(Served { skills, keywords, versions });
        self.served = Some(Arc::clone(&served));
        served
    }
}

/// The list line of an entry.
pub fn summary(entry: &Entry, origin: Origin) -> SkillSummary {
    let skill = entry.skill.as_deref();
    SkillSummary {
        name: entry.name.clone(),
        description: skill.map(|s| one_line(&s.description)).unwrap_or_default(),
        origin,
        skill_type: skill.map(|s| s.skill_type),
        category: skill.and_then(|s| s.config.category.clone()),
        tags: skill.map(|s| s.config.tags.clone()).unwrap_or_default(),
        validity: entry.validity,
        hidden: skill.is_some_and(Skill::is_hidden),
        live_version: entry.version,
        updated_at: entry.updated_at.clone(),
    }
}

fn listed(summary: SkillSummary) -> Listed {
    Listed { summary, words: OnceLock::new() }
}

/// Runs of whitespace (newlines included) become single spaces.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
