//! What another agent client makes of the library: its skill listing of the served skills, one
//! skill's findings under that client's profile, and what each disclosure level of a skill costs
//! in tokens. The window's per-client preview shows these before a skill is installed there.

use serde::{Deserialize, Serialize};
use skillcase_skill::clients::{self, AgentClient, ClientInfo, ClientListing, ListedSkill};
use skillcase_skill::disclosure::{self, IndexFormat};
use skillcase_skill::finding::Finding;
use skillcase_skill::load::load_from;
use skillcase_skill::tokens;
use ts_rs::TS;

use super::sync::listed;
use super::{Library, LibraryError};

/// One skill as a client sees it: where the client's listing puts it, what the client's rules
/// say about it, and its token counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ClientPreview {
    pub info: ClientInfo,
    pub listing: ClientListing,
    /// The skill's findings under the client's profile.
    pub findings: Vec<Finding>,
    pub tokens: SkillTokens,
}

/// What each disclosure level of one skill costs, in tokens of [`tokens::ENCODING`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SkillTokens {
    pub encoding: String,
    /// Level 1: its entry in Skillcase's own index.
    pub index_entry: usize,
    /// Level 2: what reading the skill returns (body and required references).
    pub activation: usize,
    /// Level 3: each text file the agent may read on its own, in path order.
    pub files: Vec<FileTokens>,
}

/// One level-3 file's token count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct FileTokens {
    pub path: String,
    pub tokens: usize,
}

impl Library {
    /// `client`'s listing of the served skills within `budget` characters.
    pub fn client_listing(&self, client: AgentClient, budget: usize) -> ClientListing {
        let served = self.write_state().served();
        let skills: Vec<ListedSkill> = served.skills.iter().map(|s| clients::listed(client, s)).collect();
        clients::listing(client, &skills, budget)
    }

    /// `name` as `client` sees it (see [`ClientPreview`]).
    pub fn client_preview(
        &self,
        client: AgentClient,
        name: &str,
        budget: usize,
    ) -> Result<ClientPreview, LibraryError> {
        let (entry, _) = self.live_entry(name)?;
        let findings = match listed(&entry.dir) {
            Ok(dir) => load_from(dir, client.profile(), &self.policy).findings,
            Err(e) => vec![e.to_finding()],
        };
        Ok(ClientPreview {
            info: client.info(),
            listing: self.client_listing(client, budget),
            findings,
            tokens: self.skill_tokens(name)?,
        })
    }

    /// What each level of the served skill `name` costs in tokens.
    pub fn skill_tokens(&self, name: &str) -> Result<SkillTokens, LibraryError> {
        let stored = self.stored_skill(name)?;
        let (skill, read) = (&stored.skill, |path: &str| stored.read(path));
        let alone = disclosure::index(std::slice::from_ref(skill), IndexFormat::Skillcase, usize::MAX);
        // The skill's own element: the text between the list's tags, without the frame.
        let own = alone.text.split_once("<available_skills>\n").map_or("", |(_, rest)| rest);
        let own = own.strip_suffix("</available_skills>").unwrap_or(own);
        let activation = disclosure::activation_parts(skill, None, &read)?;
        let files = skill
            .files
            .iter()
            .filter(|f| !matches!(f.path.as_str(), "SKILL.md" | "skill.md"))
            .filter_map(|f| {
                let text = disclosure::file(skill, &f.path, &read).ok()?;
                Some(FileTokens { path: f.path.clone(), tokens: tokens::count(&text) })
            })
            .collect();
        Ok(SkillTokens {
            encoding: tokens::ENCODING.into(),
            index_entry: tokens::count(own.trim_end()),
            activation: tokens::count(&activation.text),
            files,
        })
    }
}
