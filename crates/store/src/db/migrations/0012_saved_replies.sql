-- Saved replies: texts a person inserts into a reply with `#`, with variables filled
-- from the case. `action` limits one to one of the three answers (NULL: all of them); `language`
-- to one UI language (NULL: both). `search_text` is title and body folded (lower case, accents
-- removed) at save time, so the picker filters each keystroke without folding every reply again.
CREATE TABLE saved_replies (
    id          TEXT PRIMARY KEY,
    title       TEXT NOT NULL,
    body        TEXT NOT NULL,
    action      TEXT CHECK (action IN ('resolved', 'need_lead_info', 'escalate')),
    language    TEXT CHECK (language IN ('en', 'pt-BR')),
    search_text TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX saved_replies_by_title ON saved_replies (title COLLATE NOCASE);
