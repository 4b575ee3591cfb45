//! The per-client preview: how Claude Code or Codex would list the library and judge one skill,
//! and what each disclosure level costs in tokens — behind the window's level-1 preview and
//! `skillcase validate --profile claude-code|codex`.

use skillcase_common::ErrorBody;
use skillcase_library::clients::ClientPreview;
use skillcase_skill::clients::{AgentClient, DEFAULT_LISTING_CHARS};

use crate::App;

/// The listing budgets a preview accepts, in characters: from a handful of entries to a
/// million-token window at 2 %.
const BUDGET_RANGE: std::ops::RangeInclusive<usize> = 100..=100_000;

impl App {
    /// `name` as `client` sees it, its listing cut at `budget_chars` (the client's documented
    /// default, 8,000 characters, when `None`); a budget outside 100–100,000 is
    /// `invalid_listing_budget`.
    pub async fn client_preview(
        &self,
        client: AgentClient,
        name: String,
        budget_chars: Option<u32>,
    ) -> Result<ClientPreview, ErrorBody> {
        let budget = budget_chars.map_or(DEFAULT_LISTING_CHARS, |b| b as usize);
        if !BUDGET_RANGE.contains(&budget) {
            return Err(ErrorBody::new(
                "invalid_listing_budget",
                format!(
                    "a listing budget of {budget} characters is outside {}–{}",
                    BUDGET_RANGE.start(),
                    BUDGET_RANGE.end()
                ),
            ));
        }
        self.scanned().await?;
        self.on_library(move |lib| lib.client_preview(client, &name, budget)).await
    }
}
