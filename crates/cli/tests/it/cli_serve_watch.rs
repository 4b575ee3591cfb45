//! `skillcase serve --skills-dir DIR` watches DIR: a skill created, broken or fixed there shows
//! in (or leaves) the level-1 index within one second (SPEC A9, without the window).

use crate::support;

use std::time::{Duration, Instant};

use skillcase_testkit::http::Req;
use support::process::ServeProcess;

const LIMIT: Duration = Duration::from_secs(1);

fn skill_md(description: Option<&str>) -> String {
    match description {
        Some(d) => format!("---\nname: frete\ndescription: {d}\n---\n# Frete\n"),
        None => "---\nname: frete\n---\n# Frete\n".to_string(),
    }
}

/// Polls the index until `wanted(text)` holds; returns how long that took (panics past 3 s).
async fn until_index(serve: &ServeProcess, wanted: impl Fn(&str) -> bool) -> Duration {
    let started = Instant::now();
    loop {
        let reply = Req::new(serve.port, "GET", "/v1/skills/index?format=agentskills")
            .header("Host", &format!("127.0.0.1:{}", serve.port))
            .bearer(&serve.token())
            .send()
            .await;
        let text = reply.json()["text"].as_str().unwrap_or_default().to_string();
        if wanted(&text) {
            return started.elapsed();
        }
        assert!(started.elapsed() < Duration::from_secs(3), "the index never changed:\n{text}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

#[tokio::test]
async fn a_created_broken_and_fixed_skill_reach_the_index_within_a_second() {
    let skills = tempfile::tempdir().unwrap();
    let serve = ServeProcess::start(&["--skills-dir", skills.path().to_str().unwrap()]);
    let folder = skills.path().join("frete");
    std::fs::create_dir(&folder).unwrap();

    std::fs::write(folder.join("SKILL.md"), skill_md(Some("Calcula o frete"))).unwrap();
    let created = until_index(&serve, |t| t.contains("Calcula o frete")).await;
    assert!(created < LIMIT, "created skill took {created:?}");

    std::fs::write(folder.join("SKILL.md"), skill_md(None)).unwrap();
    let broken = until_index(&serve, |t| !t.contains("<name>\nfrete\n</name>")).await;
    assert!(broken < LIMIT, "broken skill took {broken:?}");

    std::fs::write(folder.join("SKILL.md"), skill_md(Some("Calcula o frete e o prazo"))).unwrap();
    let fixed = until_index(&serve, |t| t.contains("Calcula o frete e o prazo")).await;
    assert!(fixed < LIMIT, "fixed skill took {fixed:?}");
}
