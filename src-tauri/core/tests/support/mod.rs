//! Shared helpers for the integration tests: a fresh database file and sample cases; builders for
//! skills in tests (every field visible, nothing read from disk unless a test writes it).
#![allow(dead_code)]

pub mod fake_endpoint;
pub mod zips;

use std::path::PathBuf;

use rusqlite::Connection;
use skillcase_core::cases::model::{CaseSource, ContextMessage, Lead, NewCase};
use skillcase_core::skill::files::{is_infrastructure, kind_of};
use skillcase_core::skill::model::{Skill, SkillConfig, SkillFile, SkillType};
use tempfile::TempDir;

/// A database file in its own temporary directory (kept alive by the returned `TempDir`).
pub fn new_db() -> (TempDir, PathBuf, Connection) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(skillcase_core::db::DATABASE_FILE);
    let conn = skillcase_core::db::open(&path).unwrap();
    (dir, path, conn)
}

/// The case an agent opens when a lead asks for a refund it cannot grant.
pub fn refund_case(conversation_id: &str) -> NewCase {
    NewCase {
        conversation_id: conversation_id.to_string(),
        lead: Lead {
            id: Some("lead-77".into()),
            name: Some("Maria Souza".into()),
            channel: Some("whatsapp".into()),
            contact: Some("+55 11 91234-5678".into()),
        },
        agent_id: Some("support-bot".into()),
        title: "Refund for a double charge".into(),
        summary: "The lead was charged twice for order 5512 and wants one charge refunded.".into(),
        blocker: Some("Refunds need a person's approval.".into()),
        context: vec![ContextMessage {
            role: "lead".into(),
            text: "I was charged twice!".into(),
            at: Some("2026-11-30T10:00:00.000Z".into()),
        }],
        source: CaseSource::Agent,
    }
}

/// A valid prompt skill in `/skills/<name>` with only `SKILL.md`.
pub fn skill(name: &str, description: &str) -> Skill {
    Skill {
        name: name.into(),
        description: description.into(),
        license: None,
        compatibility: None,
        metadata: Default::default(),
        allowed_tools: None,
        dir: format!("/skills/{name}").into(),
        body: String::new(),
        config: SkillConfig::default(),
        skill_type: SkillType::Prompt,
        files: vec![file("SKILL.md", 100)],
    }
}

/// A manifest entry with kind and infrastructure flag decided by `skill::files`.
pub fn file(path: &str, size: u64) -> SkillFile {
    SkillFile { path: path.into(), size, kind: kind_of(path), infrastructure: is_infrastructure(path) }
}

/// `skill` with extra files added to its manifest, kept sorted by path.
pub fn with_files(mut skill: Skill, paths: &[&str]) -> Skill {
    skill.files.extend(paths.iter().map(|p| file(p, 10)));
    skill.files.sort_by(|a, b| a.path.cmp(&b.path));
    skill
}

pub fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}
