//! The agents that load skills their own way, and what each one's skill listing keeps.
//!
//! Claude Code and Codex both put a listing of the installed skills into the model's prompt and
//! cap it: Claude Code at 1 % of the context window and Codex at about 2 %, both 8,000
//! characters when the window is unknown; Claude Code also cuts each entry's description and
//! `when_to_use` at 1,536 characters and leaves out skills with `disable-model-invocation: true`.
//! When the listing overflows, both shorten descriptions first and then leave skills out. Their
//! exact wording is theirs; [`listing`] reproduces that documented behaviour so a reviewer sees,
//! before installing, which skills a client will show in full, shortened, or not at all.

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::disclosure::dir_reader;
use crate::frontmatter;
use crate::model::Skill;
use crate::tokens;
use crate::validate::clients::CLAUDE_CODE_ENTRY_CHARS;
use crate::validate::Profile;

/// The most of SKILL.md read back for `when_to_use` (the loader's own limit for SKILL.md).
const SKILL_MD_LIMIT: u64 = 1 << 20;

/// The listing budget each client uses when it does not know the context window.
pub const DEFAULT_LISTING_CHARS: usize = 8_000;

/// An agent client with its own skill loader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export)]
pub enum AgentClient {
    #[serde(rename = "claude-code")]
    ClaudeCode,
    #[serde(rename = "codex")]
    Codex,
}

/// A client name that is neither `claude-code` nor `codex`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown agent client `{0}`; use `claude-code` or `codex`")]
pub struct UnknownClient(pub String);

impl skillcase_common::error::Coded for UnknownClient {
    fn code(&self) -> &'static str {
        "unknown_client"
    }
}

impl FromStr for AgentClient {
    type Err = UnknownClient;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "claude-code" => Ok(AgentClient::ClaudeCode),
            "codex" => Ok(AgentClient::Codex),
            other => Err(UnknownClient(other.to_string())),
        }
    }
}

/// What a client reads and where, as its documentation states it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ClientInfo {
    pub client: AgentClient,
    /// The name people know it by.
    pub name: String,
    /// The validation profile holding its rules.
    pub profile: Profile,
    /// Skill folders it scans in a person's home (`~` for the home folder).
    pub user_folders: Vec<String>,
    /// Skill folders it scans in a project.
    pub project_folders: Vec<String>,
    /// The files of a skill it reads besides the ones SKILL.md points to.
    pub files_read: Vec<String>,
    /// The share of the context window its listing may fill, in percent.
    pub listing_percent: u32,
    /// The listing's budget in characters when the window is unknown.
    pub listing_default_chars: usize,
    /// The most characters of one entry's description it keeps, when it cuts entries.
    pub entry_cap_chars: Option<usize>,
}

impl AgentClient {
    /// Every client, in the order they are offered.
    pub const ALL: [AgentClient; 2] = [AgentClient::ClaudeCode, AgentClient::Codex];

    /// The name used on the command line and in the API.
    pub fn as_str(self) -> &'static str {
        match self {
            AgentClient::ClaudeCode => "claude-code",
            AgentClient::Codex => "codex",
        }
    }

    /// The validation profile with this client's rules.
    pub fn profile(self) -> Profile {
        match self {
            AgentClient::ClaudeCode => Profile::ClaudeCode,
            AgentClient::Codex => Profile::Codex,
        }
    }

    /// What this client reads and where.
    pub fn info(self) -> ClientInfo {
        let strings = |items: &[&str]| items.iter().map(|s| s.to_string()).collect();
        match self {
            AgentClient::ClaudeCode => ClientInfo {
                client: self,
                name: "Claude Code".into(),
                profile: self.profile(),
                user_folders: strings(&["~/.claude/skills"]),
                project_folders: strings(&[".claude/skills"]),
                files_read: strings(&["SKILL.md"]),
                listing_percent: 1,
                listing_default_chars: DEFAULT_LISTING_CHARS,
                entry_cap_chars: Some(CLAUDE_CODE_ENTRY_CHARS),
            },
            AgentClient::Codex => ClientInfo {
                client: self,
                name: "Codex".into(),
                profile: self.profile(),
                user_folders: strings(&["~/.agents/skills", "~/.codex/skills"]),
                project_folders: strings(&[".agents/skills", ".codex/skills"]),
                files_read: strings(&["SKILL.md", "agents/openai.yaml"]),
                listing_percent: 2,
                listing_default_chars: DEFAULT_LISTING_CHARS,
                entry_cap_chars: None,
            },
        }
    }
}

/// One skill as a client's listing sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedSkill {
    pub name: String,
    pub description: String,
    /// Claude Code's `when_to_use`, listed after the description.
    pub when_to_use: Option<String>,
    /// `disable-model-invocation: true`: Claude Code keeps it out of the model's listing.
    pub model_hidden: bool,
    /// The path of its SKILL.md, which Codex lists with it.
    pub location: String,
}

/// What became of one skill in a client's listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ListingFate {
    /// Listed with its whole description.
    Kept,
    /// Listed with its description shortened (the entry cap, or the budget).
    Shortened,
    /// Left out: the budget was spent before it.
    LeftOut,
    /// Never listed for the model (`disable-model-invocation: true` in Claude Code).
    NotListed,
}

/// One skill's place in a client's listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ListingEntry {
    pub name: String,
    pub fate: ListingFate,
    /// Characters of its whole entry, before any cut.
    pub full_chars: usize,
    /// Characters of the entry as listed (0 when not listed).
    pub shown_chars: usize,
}

/// A client's listing of the skills given, as it would put it into the prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ClientListing {
    pub client: AgentClient,
    pub budget_chars: usize,
    /// Characters of `text`.
    pub used_chars: usize,
    /// Tokens of `text` in [`tokens::ENCODING`].
    pub tokens: usize,
    pub encoding: String,
    /// The listing's text: one line per listed skill, in name order.
    pub text: String,
    /// Every skill given, in name order.
    pub entries: Vec<ListingEntry>,
}

/// A loaded skill as `client`'s listing takes it. Claude Code also lists `when_to_use`, which
/// the loaded skill does not keep, so it is read again from the folder's SKILL.md frontmatter
/// (through the same safe opener as every reader; an unreadable file lists no `when_to_use`).
pub fn listed(client: AgentClient, skill: &Skill) -> ListedSkill {
    ListedSkill {
        name: skill.name.clone(),
        description: skill.description.clone(),
        when_to_use: (client == AgentClient::ClaudeCode).then(|| when_to_use(skill)).flatten(),
        model_hidden: skill.config.hidden,
        location: skill.dir.join("SKILL.md").display().to_string(),
    }
}

fn when_to_use(skill: &Skill) -> Option<String> {
    let bytes = dir_reader(skill, SKILL_MD_LIMIT)("SKILL.md").ok()?;
    let parsed = frontmatter::parse(std::str::from_utf8(&bytes).ok()?).ok()?;
    parsed.get("when_to_use")?.as_text().map(str::to_string)
}

/// `client`'s listing of `skills` within `budget_chars` (see the module documentation).
pub fn listing(client: AgentClient, skills: &[ListedSkill], budget_chars: usize) -> ClientListing {
    let mut sorted: Vec<&ListedSkill> = skills.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let listed: Vec<Line> = sorted.iter().filter_map(|s| Line::of(client, s)).collect();
    let cap = fitting_cap(&listed, budget_chars);
    let mut text = String::new();
    let mut shown = std::collections::HashMap::new();
    for line in &listed {
        let entry = line.render(cap);
        let extra = usize::from(!text.is_empty());
        if text.chars().count() + extra + entry.chars().count() > budget_chars {
            break;
        }
        if extra == 1 {
            text.push('\n');
        }
        shown.insert(line.name, (entry.chars().count(), line.description.chars().count() > cap));
        text.push_str(&entry);
    }
    let entries = sorted.iter().map(|s| entry_of(client, s, shown.get(s.name.as_str()).copied())).collect();
    ClientListing {
        client,
        budget_chars,
        used_chars: text.chars().count(),
        tokens: tokens::count(&text),
        encoding: tokens::ENCODING.into(),
        text,
        entries,
    }
}

fn entry_of(client: AgentClient, skill: &ListedSkill, shown: Option<(usize, bool)>) -> ListingEntry {
    let full = Line::of(client, skill).map_or(0, |l| l.full_chars());
    let (fate, shown_chars) = match (Line::of(client, skill), shown) {
        (None, _) => (ListingFate::NotListed, 0),
        (Some(_), None) => (ListingFate::LeftOut, 0),
        (Some(line), Some((chars, cut))) => {
            let capped = line.capped_by_client;
            (if cut || capped { ListingFate::Shortened } else { ListingFate::Kept }, chars)
        }
    };
    ListingEntry { name: skill.name.clone(), fate, full_chars: full, shown_chars }
}

/// One skill's listing line before the budget: its name, its description as the client takes
/// it (already cut at the client's own entry cap), and what follows it.
struct Line<'s> {
    client: AgentClient,
    name: &'s str,
    description: String,
    capped_by_client: bool,
    /// Characters of the description before the client's own cap.
    uncapped_chars: usize,
    location: &'s str,
}

impl<'s> Line<'s> {
    fn of(client: AgentClient, skill: &'s ListedSkill) -> Option<Line<'s>> {
        let mut description = one_line(&skill.description);
        let mut capped_by_client = false;
        let mut uncapped_chars = description.chars().count();
        if client == AgentClient::ClaudeCode {
            if skill.model_hidden {
                return None;
            }
            if let Some(when) = skill.when_to_use.as_deref().map(one_line).filter(|w| !w.is_empty()) {
                description = format!("{description} {when}");
            }
            uncapped_chars = description.chars().count();
            if uncapped_chars > CLAUDE_CODE_ENTRY_CHARS {
                description = description.chars().take(CLAUDE_CODE_ENTRY_CHARS).collect();
                capped_by_client = true;
            }
        }
        Some(Line {
            client,
            name: &skill.name,
            description,
            capped_by_client,
            uncapped_chars,
            location: &skill.location,
        })
    }

    /// Characters of the whole entry, before the client's cap and the budget.
    fn full_chars(&self) -> usize {
        let rendered = self.render(usize::MAX).chars().count();
        rendered - self.description.chars().count() + self.uncapped_chars
    }

    /// The line with the description cut at `cap` characters (none left: the name alone).
    fn render(&self, cap: usize) -> String {
        let description: String = self.description.chars().take(cap).collect();
        let mut line = format!("- {}", self.name);
        if !description.is_empty() {
            line.push_str(": ");
            line.push_str(&description);
        }
        if self.client == AgentClient::Codex {
            line.push_str(&format!(" (file: {})", self.location));
        }
        line
    }
}

/// The longest description cap under which every listed line fits the budget; 0 when even the
/// bare names overflow (then skills are left out from the end).
fn fitting_cap(lines: &[Line<'_>], budget: usize) -> usize {
    let total = |cap: usize| -> usize {
        let chars: usize = lines.iter().map(|l| l.render(cap).chars().count()).sum();
        chars + lines.len().saturating_sub(1)
    };
    let longest = lines.iter().map(|l| l.description.chars().count()).max().unwrap_or(0);
    if total(longest) <= budget {
        return usize::MAX;
    }
    let (mut low, mut high) = (0, longest);
    while low < high {
        let mid = (low + high).div_ceil(2);
        if total(mid) <= budget {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    low
}

/// Runs of whitespace (newlines included) as single spaces, as both clients list a description.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(name: &str, description: &str) -> ListedSkill {
        ListedSkill {
            name: name.into(),
            description: description.into(),
            when_to_use: None,
            model_hidden: false,
            location: format!("/skills/{name}/SKILL.md"),
        }
    }

    fn fates(listing: &ClientListing) -> Vec<(&str, ListingFate)> {
        listing.entries.iter().map(|e| (e.name.as_str(), e.fate)).collect()
    }

    #[test]
    fn within_the_budget_every_skill_is_listed_whole_in_name_order() {
        let skills = [skill("refunds", "Refund a charge."), skill("delivery", "Track a parcel.")];
        let listing = listing(AgentClient::ClaudeCode, &skills, 8_000);
        assert_eq!(listing.text, "- delivery: Track a parcel.\n- refunds: Refund a charge.");
        assert_eq!(fates(&listing), [("delivery", ListingFate::Kept), ("refunds", ListingFate::Kept)]);
        assert_eq!(listing.used_chars, listing.text.chars().count());
    }

    #[test]
    fn codex_lists_each_skill_with_its_file() {
        let listing = listing(AgentClient::Codex, &[skill("refunds", "Refund a charge.")], 8_000);
        assert_eq!(listing.text, "- refunds: Refund a charge. (file: /skills/refunds/SKILL.md)");
    }

    #[test]
    fn claude_code_cuts_description_and_when_to_use_at_1536_characters() {
        let mut long = skill("refunds", &"a".repeat(1_500));
        long.when_to_use = Some("b".repeat(100));
        let listing = listing(AgentClient::ClaudeCode, &[long], 8_000);
        let entry = &listing.entries[0];
        assert_eq!(entry.fate, ListingFate::Shortened);
        assert_eq!(entry.shown_chars, "- refunds: ".len() + 1_536);
        assert_eq!(entry.full_chars, "- refunds: ".len() + 1_601);
    }

    #[test]
    fn claude_code_never_lists_a_skill_the_model_may_not_start() {
        let mut hidden = skill("deploy", "Deploy to production.");
        hidden.model_hidden = true;
        let listing = listing(AgentClient::ClaudeCode, &[hidden.clone()], 8_000);
        assert_eq!((listing.text.as_str(), listing.entries[0].fate), ("", ListingFate::NotListed));
        let codex = super::listing(AgentClient::Codex, &[hidden], 8_000);
        assert_eq!(codex.entries[0].fate, ListingFate::Kept);
    }

    #[test]
    fn over_the_budget_descriptions_are_shortened_before_any_skill_is_left_out() {
        let skills: Vec<ListedSkill> =
            (0..10).map(|i| skill(&format!("skill-{i}"), &"word ".repeat(40))).collect();
        let listing = listing(AgentClient::ClaudeCode, &skills, 1_000);
        assert!(listing.used_chars <= 1_000);
        assert!(listing.entries.iter().all(|e| e.fate == ListingFate::Shortened), "{:?}", fates(&listing));
    }

    #[test]
    fn when_even_the_names_overflow_the_last_skills_are_left_out() {
        let skills: Vec<ListedSkill> =
            (0..10).map(|i| skill(&format!("skill-{i}"), "Does a thing.")).collect();
        let listing = listing(AgentClient::ClaudeCode, &skills, 40);
        assert_eq!(listing.text, "- skill-0\n- skill-1\n- skill-2\n- skill-3");
        assert_eq!(listing.entries[4].fate, ListingFate::LeftOut);
        assert_eq!(listing.entries[9].shown_chars, 0);
    }

    #[test]
    fn the_listing_is_counted_in_tokens_of_its_named_encoding() {
        let listing = listing(AgentClient::Codex, &[skill("refunds", "Refund a charge.")], 8_000);
        assert_eq!(listing.encoding, "o200k_base");
        assert_eq!(listing.tokens, tokens::count(&listing.text));
        assert!(listing.tokens > 5);
    }

    #[test]
    fn client_names_read_back_and_unknown_ones_are_refused_with_a_code() {
        for client in AgentClient::ALL {
            assert_eq!(client.as_str().parse::<AgentClient>(), Ok(client));
        }
        let err = "cursor".parse::<AgentClient>().unwrap_err();
        assert_eq!(skillcase_common::error::Coded::code(&err), "unknown_client");
    }
}
