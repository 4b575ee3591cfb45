//! Git sources on the real binary: skills installed from a repository served by `git daemon` on
//! 127.0.0.1 (and from a bare repository by path), pinned in the lock to the resolved commit;
//! `skillcase update` shows the diff and moves a pin only with `--yes`, holding back a copy with
//! changes of its own.

use std::fs;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};

use tempfile::TempDir;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.email=test@example.test", "-c", "user.name=Test", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn skill_md(name: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: Responde sobre {name}. Use quando o cliente pergunta de {name}.\n---\n# {body}\n")
}

/// A repository with the skills `frete` and `boleto`, its working copy and a bare copy served.
struct Repo {
    dir: TempDir,
    daemon: Option<Child>,
    port: u16,
}

impl Repo {
    fn new() -> Repo {
        let dir = TempDir::new().unwrap();
        let work = dir.path().join("work");
        fs::create_dir_all(work.join("skills/frete")).unwrap();
        fs::create_dir_all(work.join("skills/boleto")).unwrap();
        fs::write(work.join("skills/frete/SKILL.md"), skill_md("frete", "Frete v1")).unwrap();
        fs::write(work.join("skills/boleto/SKILL.md"), skill_md("boleto", "Boleto v1")).unwrap();
        git(&work, &["init", "-q"]);
        git(&work, &["add", "-A"]);
        git(&work, &["commit", "-qm", "v1"]);
        git(dir.path(), &["clone", "-q", "--bare", "work", "repo.git"]);
        Repo { dir, daemon: None, port: 0 }
    }

    /// Serves the bare repository with `git daemon` on a free port of 127.0.0.1 (its own binary
    /// run directly, so killing it stops the server, not a wrapper).
    fn served(mut self) -> Repo {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let exec_path = git(self.dir.path(), &["--exec-path"]);
        let daemon = Command::new(Path::new(&exec_path).join("git-daemon"))
            .args(["--export-all", "--reuseaddr", "--listen=127.0.0.1"])
            .arg(format!("--port={port}"))
            .arg(format!("--base-path={}", self.dir.path().display()))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed().as_secs() < 10, "git daemon did not start");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        self.daemon = Some(daemon);
        self.port = port;
        self
    }

    fn url(&self) -> String {
        if self.daemon.is_some() {
            format!("git://127.0.0.1:{}/repo.git", self.port)
        } else {
            self.dir.path().join("repo.git").display().to_string()
        }
    }

    fn head(&self) -> String {
        git(&self.dir.path().join("repo.git"), &["rev-parse", "HEAD"])
    }

    /// Commits `text` as `rel` in the working copy and pushes it to the served repository.
    fn commit(&self, rel: &str, text: &str, branch: &str) {
        let work = self.dir.path().join("work");
        fs::write(work.join(rel), text).unwrap();
        git(&work, &["commit", "-qam", "change"]);
        git(&work, &["push", "-q", "../repo.git", &format!("HEAD:{branch}")]);
    }
}

impl Drop for Repo {
    fn drop(&mut self) {
        if let Some(daemon) = &mut self.daemon {
            let _ = daemon.kill();
            let _ = daemon.wait();
        }
    }
}

struct Work {
    dir: TempDir,
}

impl Work {
    fn new() -> Work {
        let work = Work { dir: TempDir::new().unwrap() };
        fs::create_dir_all(work.project()).unwrap();
        work
    }

    fn project(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    fn skillcase(&self, args: &[&str]) -> std::process::Output {
        assert_cmd::Command::cargo_bin("skillcase")
            .unwrap()
            .env("HOME", self.dir.path().join("home"))
            .env("SKILLCASE_DATA_DIR", self.dir.path().join("data"))
            .args(args)
            .arg("--project")
            .arg(self.project())
            .output()
            .unwrap()
    }

    fn lock(&self) -> serde_json::Value {
        serde_json::from_str(
            &fs::read_to_string(self.project().join(".claude/skills/skillcase.lock")).unwrap(),
        )
        .unwrap()
    }

    fn installed(&self, name: &str) -> String {
        fs::read_to_string(self.project().join(".claude/skills").join(name).join("SKILL.md")).unwrap()
    }
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_skill_from_a_served_repository_is_installed_and_pinned_to_its_commit() {
    let repo = Repo::new().served();
    let work = Work::new();
    let run = work.skillcase(&[
        "install",
        &format!("git+{}", repo.url()),
        "--skill",
        "frete",
        "--target",
        "claude-code",
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stdout(&run));
    assert!(
        stdout(&run).starts_with(&format!("installed frete (commit {})", &repo.head()[..12])),
        "{}",
        stdout(&run)
    );
    assert_eq!(work.installed("frete"), skill_md("frete", "Frete v1"));
    assert!(!work.project().join(".claude/skills/boleto").exists(), "only the skill asked for");
    let source = &work.lock()["skills"]["frete"]["source"];
    assert_eq!(source["kind"], "git");
    assert_eq!(source["commit"], repo.head());
    assert_eq!(source["path"], "skills/frete");
}

#[test]
fn every_skill_of_the_repository_is_installed_when_none_is_named() {
    let repo = Repo::new();
    let work = Work::new();
    let run = work.skillcase(&["install", &format!("git+{}", repo.url()), "--target", "claude-code"]);
    assert_eq!(run.status.code(), Some(0), "{}", stdout(&run));
    assert_eq!(work.installed("boleto"), skill_md("boleto", "Boleto v1"));
    assert_eq!(work.installed("frete"), skill_md("frete", "Frete v1"));
}

#[test]
fn a_branch_or_a_commit_after_the_url_picks_what_is_installed() {
    let repo = Repo::new().served();
    let first = repo.head();
    repo.commit("skills/frete/SKILL.md", &skill_md("frete", "Frete release"), "release");
    repo.commit("skills/frete/SKILL.md", &skill_md("frete", "Frete v2"), "main");
    let work = Work::new();
    let url = repo.url();
    assert_eq!(
        work.skillcase(&[
            "install",
            &format!("git+{url}#release"),
            "--skill",
            "frete",
            "--target",
            "claude-code"
        ])
        .status
        .code(),
        Some(0)
    );
    assert_eq!(work.installed("frete"), skill_md("frete", "Frete release"));
    assert_eq!(work.lock()["skills"]["frete"]["source"]["reference"], "release");
    let pinned = work.skillcase(&[
        "install",
        &format!("git+{url}@{}", &first[..10]),
        "--skill",
        "frete",
        "--target",
        "claude-code",
    ]);
    assert_eq!(pinned.status.code(), Some(0), "{}", stdout(&pinned));
    assert_eq!(work.installed("frete"), skill_md("frete", "Frete v1"));
    assert_eq!(work.lock()["skills"]["frete"]["source"]["commit"], first);
}

#[test]
fn update_shows_the_diff_and_moves_the_pin_only_with_yes() {
    let repo = Repo::new().served();
    let work = Work::new();
    let url = format!("git+{}", repo.url());
    assert_eq!(
        work.skillcase(&["install", &url, "--skill", "frete", "--target", "claude-code"]).status.code(),
        Some(0)
    );
    let pinned = repo.head();
    repo.commit("skills/frete/SKILL.md", &skill_md("frete", "Frete v2"), "main");

    let verify = work.skillcase(&["verify"]);
    assert_eq!(verify.status.code(), Some(0), "a pin that did not move is not outdated: {}", stdout(&verify));
    let shown = work.skillcase(&["update"]);
    assert_eq!(shown.status.code(), Some(0));
    let text = stdout(&shown);
    assert!(text.contains(&format!("{} → {}", &pinned[..12], &repo.head()[..12])), "{text}");
    assert!(text.contains("-# Frete v1\n+# Frete v2\n"), "{text}");
    assert!(text.ends_with("nothing moved; run again with --yes to move 1 pin(s)\n"), "{text}");
    assert_eq!(work.installed("frete"), skill_md("frete", "Frete v1"));

    let moved = work.skillcase(&["update", "--yes"]);
    assert!(
        stdout(&moved).contains(&format!("frete: moved to {}", &repo.head()[..12])),
        "{}",
        stdout(&moved)
    );
    assert_eq!(work.installed("frete"), skill_md("frete", "Frete v2"));
    assert_eq!(work.lock()["skills"]["frete"]["source"]["commit"], repo.head());
    assert_eq!(work.skillcase(&["verify"]).status.code(), Some(0));
}

#[test]
fn update_holds_back_a_copy_with_changes_of_its_own() {
    let repo = Repo::new();
    let work = Work::new();
    let url = format!("git+{}", repo.url());
    assert_eq!(
        work.skillcase(&["install", &url, "--skill", "frete", "--target", "claude-code"]).status.code(),
        Some(0)
    );
    repo.commit("skills/frete/SKILL.md", &skill_md("frete", "Frete v2"), "main");
    let mine = skill_md("frete", "Frete, my edit");
    fs::write(work.project().join(".claude/skills/frete/SKILL.md"), &mine).unwrap();
    let run = work.skillcase(&["update", "--yes", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&run)).unwrap();
    assert_eq!(report["updates"][0]["outcome"], "held_back");
    assert_eq!(work.installed("frete"), mine);
}

#[test]
fn a_skill_the_repository_lacks_or_a_repository_that_is_not_there_is_refused_by_code() {
    let repo = Repo::new();
    let work = Work::new();
    let missing = work.skillcase(&[
        "install",
        &format!("git+{}", repo.url()),
        "--skill",
        "pix",
        "--target",
        "claude-code",
    ]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(stdout(&missing).starts_with("error git_skill_not_found: "), "{}", stdout(&missing));
    let gone = work.skillcase(&["install", "git+/nowhere/repo.git", "--target", "claude-code"]);
    assert_eq!(gone.status.code(), Some(1));
    assert!(
        stdout(&gone).starts_with("error git_failed: git failed on /nowhere/repo.git"),
        "{}",
        stdout(&gone)
    );
    assert!(!work.project().join(".claude").exists(), "nothing written");
}

#[test]
fn a_git_repository_is_a_catalog_pulled_through_git_and_its_new_commits_are_updates() {
    let repo = Repo::new();
    let work = Work::new();
    let catalogs = |args: &[&str]| {
        assert_cmd::Command::cargo_bin("skillcase")
            .unwrap()
            .env("HOME", work.dir.path().join("home"))
            .env("SKILLCASE_DATA_DIR", work.dir.path().join("data"))
            .env("SKILLCASE_SKILLS_DIR", work.dir.path().join("skills"))
            .arg("catalogs")
            .args(args)
            .output()
            .unwrap()
    };
    let spec = format!("git+{}", repo.url());
    let added = catalogs(&["add", &spec]);
    assert_eq!(added.status.code(), Some(0), "{}", stdout(&added));
    assert!(stdout(&added).contains(&format!("{spec} (git)")), "{}", stdout(&added));
    let pulled = catalogs(&["pull"]);
    assert!(stdout(&pulled).contains("2 new, 0 updated"), "{}", stdout(&pulled));
    let installed = catalogs(&["install", "1", "frete"]);
    assert_eq!(installed.status.code(), Some(0), "{}", stdout(&installed));
    assert_eq!(
        fs::read_to_string(work.dir.path().join("skills/frete/SKILL.md")).unwrap(),
        skill_md("frete", "Frete v1")
    );

    repo.commit("skills/frete/SKILL.md", &skill_md("frete", "Frete v2"), "main");
    let again = catalogs(&["pull"]);
    assert!(stdout(&again).contains("0 new, 1 updated, 1 unchanged"), "{}", stdout(&again));
    assert!(stdout(&again).contains(&format!("updated  frete {}", &repo.head()[..12])), "{}", stdout(&again));
}
