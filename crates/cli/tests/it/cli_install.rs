//! `skillcase install`, `sync` and `verify` run as the real binary: skills copied into agents'
//! folders at project and user level with a `skillcase.lock`, verify exiting 1 on a hand edit
//! and naming the file, sync repairing it without touching a hand-made skill beside it.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use tempfile::TempDir;

const SKILL_MD: &str = "---\nname: frete\ndescription: Calcula o frete por CEP. Use quando o cliente pergunta do frete.\n---\n# Frete\n\nLeia references/tabela.md.\n";

/// The binary with its own data directory and a home folder of its own.
fn skillcase(work: &TempDir) -> Command {
    let mut command = Command::cargo_bin("skillcase").unwrap();
    command.env("SKILLCASE_DATA_DIR", work.path().join("data")).env("HOME", work.path().join("home"));
    command
}

fn write(root: &Path, rel: &str, bytes: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

/// A skill folder `frete` with a reference and some OS junk beside it.
fn skill_folder(root: &Path) -> PathBuf {
    let dir = root.join("src/frete");
    write(&dir, "SKILL.md", SKILL_MD);
    write(&dir, "references/tabela.md", "# Tabela\n");
    write(&dir, ".DS_Store", "junk");
    dir
}

/// `skillcase install SRC --target TARGET --project PROJECT`, which must succeed.
fn install(work: &TempDir, src: &Path, target: &str, project: &Path) {
    skillcase(work)
        .arg("install")
        .arg(src)
        .args(["--target", target, "--project"])
        .arg(project)
        .assert()
        .code(0);
}

fn project(work: &TempDir) -> PathBuf {
    let dir = work.path().join("project");
    fs::create_dir_all(&dir).unwrap();
    dir.canonicalize().unwrap()
}

fn stdout_of(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn install_verify_edit_sync_verify_round_trip_in_a_project() {
    let work = TempDir::new().unwrap();
    let src = skill_folder(work.path());
    let project = project(&work);
    let install = skillcase(&work)
        .arg("install")
        .arg(&src)
        .args(["--target", "claude", "--target", "agents", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    assert_eq!(install.status.code(), Some(0), "{}", stdout_of(&install));
    let claude = project.join(".claude/skills");
    let agents = project.join(".agents/skills");
    assert_eq!(
        stdout_of(&install),
        format!(
            "installed frete into {}/frete (2 files)\ninstalled frete into {}/frete (2 files)\n",
            claude.display(),
            agents.display()
        )
    );
    for dir in [&claude, &agents] {
        assert_eq!(listing(dir), ["frete", "skillcase.lock"]);
        assert_eq!(listing(&dir.join("frete")), ["SKILL.md", "references"]);
    }

    let verify =
        |work: &TempDir| skillcase(work).arg("verify").arg("--project").arg(&project).output().unwrap();
    let clean = verify(&work);
    assert_eq!(clean.status.code(), Some(0), "{}", stdout_of(&clean));
    assert_eq!(stdout_of(&clean), "ok: 2 skills checked, 0 drifted, 0 outdated\n");

    write(&claude, "frete/references/tabela.md", "# Tabela editada à mão\n");
    write(&claude, "mine/SKILL.md", "a skill made by hand");
    let drifted = verify(&work);
    assert_eq!(drifted.status.code(), Some(1));
    assert_eq!(
        stdout_of(&drifted),
        format!(
            "{}/frete/references/tabela.md: modified\ndrift: 2 skills checked, 1 drifted, 0 outdated\n",
            claude.display()
        )
    );

    let sync = skillcase(&work).arg("sync").arg("--project").arg(&project).output().unwrap();
    assert_eq!(sync.status.code(), Some(0), "{}", stdout_of(&sync));
    assert_eq!(
        stdout_of(&sync),
        format!(
            "{a}/frete: unchanged\n{c}/frete: repaired (references/tabela.md modified)\nsynced 2 skills: 0 updated, 1 repaired, 1 unchanged, 0 source missing, 0 held back\n",
            c = claude.display(),
            a = agents.display()
        )
    );
    assert_eq!(fs::read_to_string(claude.join("frete/references/tabela.md")).unwrap(), "# Tabela\n");
    assert_eq!(fs::read_to_string(claude.join("mine/SKILL.md")).unwrap(), "a skill made by hand");
    assert_eq!(verify(&work).status.code(), Some(0));
}

#[test]
fn verify_lists_added_and_missing_files_and_an_outdated_source_as_json() {
    let work = TempDir::new().unwrap();
    let src = skill_folder(work.path());
    let project = project(&work);
    install(&work, &src, "codex", &project);
    let codex = project.join(".agents/skills/frete");
    fs::remove_file(codex.join("references/tabela.md")).unwrap();
    write(&codex, "notes.md", "mine");
    write(&src, "SKILL.md", &SKILL_MD.replace("Leia", "Consulte"));
    let run = skillcase(&work)
        .args(["verify", "--target", "codex", "--format", "json", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_str(&stdout_of(&run)).unwrap();
    assert_eq!(report["clean"], false);
    assert_eq!(
        report["targets"][0]["skills"][0],
        serde_json::json!({
            "name": "frete",
            "drift": [
                { "path": "notes.md", "kind": "added" },
                { "path": "references/tabela.md", "kind": "missing" },
            ],
            "source": "changed",
        })
    );
}

#[test]
fn a_hand_made_folder_of_the_same_name_is_refused_unless_forced() {
    let work = TempDir::new().unwrap();
    let src = skill_folder(work.path());
    let project = project(&work);
    write(&project, ".agents/skills/frete/SKILL.md", "a skill made by hand");
    let run = skillcase(&work)
        .arg("install")
        .arg(&src)
        .args(["--target", "cursor", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(stdout_of(&run).starts_with("error install_conflict: "), "{}", stdout_of(&run));
    assert_eq!(
        fs::read_to_string(project.join(".agents/skills/frete/SKILL.md")).unwrap(),
        "a skill made by hand"
    );
    skillcase(&work)
        .arg("install")
        .arg(&src)
        .args(["--target", "cursor", "--force", "--project"])
        .arg(&project)
        .assert()
        .code(0);
    assert_eq!(fs::read_to_string(project.join(".agents/skills/frete/SKILL.md")).unwrap(), SKILL_MD);
}

#[test]
fn a_library_skill_installs_by_name_with_its_library_version_in_the_lock() {
    let work = TempDir::new().unwrap();
    let skills = work.path().join("skills");
    write(&skills, "frete/SKILL.md", SKILL_MD);
    let project = project(&work);
    let run = skillcase(&work)
        .env("SKILLCASE_SKILLS_DIR", &skills)
        .args(["install", "frete", "--target", "github", "--format", "json", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stdout_of(&run));
    let report: serde_json::Value = serde_json::from_str(&stdout_of(&run)).unwrap();
    let installed = &report["installed"][0];
    assert_eq!(installed["source"]["kind"], "library");
    assert_eq!(installed["source"]["name"], "frete");
    let version = installed["version"].as_i64().expect("a library version");
    let lock: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(project.join(".agents/skills/skillcase.lock")).unwrap())
            .unwrap();
    assert_eq!(lock["skills"]["frete"]["version"], version);
    assert_eq!(lock["skills"]["frete"]["source"]["kind"], "library");
    assert_eq!(fs::read_to_string(project.join(".agents/skills/frete/SKILL.md")).unwrap(), SKILL_MD);
}

#[test]
fn user_level_installs_under_home_and_verifies_there() {
    let work = TempDir::new().unwrap();
    let src = skill_folder(work.path());
    fs::create_dir_all(work.path().join("home")).unwrap();
    skillcase(&work).arg("install").arg(&src).args(["--target", "claude", "--user"]).assert().code(0);
    let installed = work.path().join("home/.claude/skills");
    assert_eq!(listing(&installed), ["frete", "skillcase.lock"]);
    let run = skillcase(&work).args(["verify", "--user"]).output().unwrap();
    assert_eq!(stdout_of(&run), "ok: 1 skills checked, 0 drifted, 0 outdated\n");
}

#[test]
fn install_needs_either_user_or_project() {
    let work = TempDir::new().unwrap();
    let src = skill_folder(work.path());
    skillcase(&work).arg("install").arg(&src).args(["--target", "claude"]).assert().code(2);
    skillcase(&work)
        .arg("install")
        .arg(&src)
        .args(["--target", "claude", "--user", "--project", "."])
        .assert()
        .code(2);
    skillcase(&work).arg("install").arg(&src).args(["--target", "vim", "--user"]).assert().code(2);
}

/// Fills `dir` with 25 sparse files of 60 MB: 1.5 GB that take no disk.
#[cfg(target_os = "linux")]
fn plant_sparse_files(dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    for i in 0..25 {
        let file = fs::File::create(dir.join(format!("parte-{i:02}.bin"))).unwrap();
        file.set_len(60 << 20).unwrap();
    }
}

/// The largest peak memory of any child this test binary has waited for.
#[cfg(target_os = "linux")]
fn children_peak_bytes() -> u64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) }, 0);
    usage.ru_maxrss as u64 * 1024
}

#[cfg(target_os = "linux")]
#[test]
fn a_source_whose_files_add_up_to_more_than_the_loader_takes_is_refused_unread() {
    let work = TempDir::new().unwrap();
    let src = skill_folder(work.path());
    plant_sparse_files(&src.join("assets"));
    let project = project(&work);
    let run = skillcase(&work)
        .arg("install")
        .arg(&src)
        .args(["--target", "claude", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let text = String::from_utf8(run.stderr.clone()).unwrap() + &stdout_of(&run);
    assert!(text.contains("package_too_large"), "{text}");
    assert!(!project.join(".claude/skills/frete").exists());
    let peak = children_peak_bytes();
    assert!(peak < 512 * 1024 * 1024, "a child's peak memory was {peak} bytes");
}

#[cfg(target_os = "linux")]
#[test]
fn verify_reports_an_installed_folder_grown_past_the_loader_limit_unread() {
    let work = TempDir::new().unwrap();
    let src = skill_folder(work.path());
    let project = project(&work);
    install(&work, &src, "claude", &project);
    plant_sparse_files(&project.join(".claude/skills/frete/assets"));
    let run = skillcase(&work)
        .args(["verify", "--target", "claude", "--format", "json", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_str(&stdout_of(&run)).unwrap();
    assert_eq!(report["targets"][0]["skills"][0]["drift"][0]["kind"], "unreadable");
    let peak = children_peak_bytes();
    assert!(peak < 512 * 1024 * 1024, "a child's peak memory was {peak} bytes");
}

/// A `skillcase.lock` as someone could commit or edit it: one skill listed under `key`, from the
/// folder `source`, with one file whose digest matches nothing (so sync would copy it again).
fn hostile_lock(key: &str, source: &str) -> String {
    serde_json::json!({
        "lock_version": 1,
        "skills": { key: {
            "version": null,
            "source": { "kind": "folder", "path": source },
            "installed_at": "2026-05-01T10:00:00.000Z",
            "files": { "SKILL.md": "0".repeat(64) }
        } }
    })
    .to_string()
}

/// Every file beneath `dir` with its content, to show a folder was not touched.
fn contents(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(contents(&path));
        } else {
            out.push((path.display().to_string(), fs::read_to_string(&path).unwrap()));
        }
    }
    out.sort();
    out
}

#[test]
fn sync_refuses_a_lock_whose_skill_name_is_a_path_and_touches_nothing_outside_or_inside() {
    let work = TempDir::new().unwrap();
    let src = skill_folder(work.path());
    let project = project(&work);
    let victim = work.path().join("victim");
    write(&victim, "notes.txt", "a folder outside the agent folder");
    let skills = project.join(".claude/skills");
    let victim_abs = victim.display().to_string();
    for key in ["../../../victim", victim_abs.as_str(), "skillcase.lock", "..", "frete/../../../../victim"] {
        let lock = hostile_lock(key, &src.display().to_string());
        write(&skills, "skillcase.lock", &lock);
        for command in ["sync", "verify"] {
            let run = skillcase(&work).arg(command).arg("--project").arg(&project).output().unwrap();
            assert_eq!(run.status.code(), Some(1), "{command} {key}: {}", stdout_of(&run));
            assert!(
                stdout_of(&run).starts_with("error lock_invalid_entry: "),
                "{command} {key}: {}",
                stdout_of(&run)
            );
            assert!(stdout_of(&run).contains("is not a skill name"), "{}", stdout_of(&run));
        }
        assert_eq!(
            contents(&victim),
            [(
                victim.join("notes.txt").display().to_string(),
                "a folder outside the agent folder".to_string()
            )]
        );
        assert_eq!(listing(&skills), ["skillcase.lock"], "{key}");
        assert_eq!(fs::read_to_string(skills.join("skillcase.lock")).unwrap(), lock, "{key}");
    }
}

#[test]
fn sync_at_user_level_never_replaces_the_home_ssh_folder_named_by_a_lock() {
    let work = TempDir::new().unwrap();
    let src = skill_folder(work.path());
    let home = work.path().join("home");
    write(&home, ".ssh/id_ed25519", "PRIVATE KEY");
    write(&home, ".ssh/authorized_keys", "ssh-ed25519 AAAA ana@laptop");
    write(&src, "authorized_keys", "ssh-ed25519 AAAA attacker@evil");
    let lock = hostile_lock("../../.ssh", &src.display().to_string());
    write(&home, ".claude/skills/skillcase.lock", &lock);
    let before = contents(&home.join(".ssh"));

    let run = skillcase(&work).args(["sync", "--user", "--format", "json"]).output().unwrap();

    assert_eq!(run.status.code(), Some(1), "{}", stdout_of(&run));
    let answer: serde_json::Value = serde_json::from_str(&stdout_of(&run)).unwrap();
    assert_eq!(answer["error"]["code"], "lock_invalid_entry");
    assert_eq!(answer["error"]["details"]["skill"], "../../.ssh");
    assert_eq!(contents(&home.join(".ssh")), before);
}

#[test]
fn a_relative_folder_source_in_a_lock_is_found_beside_the_lock_wherever_sync_runs() {
    let work = TempDir::new().unwrap();
    let project = project(&work);
    let src = project.join("skills/frete");
    write(&src, "SKILL.md", SKILL_MD);
    install(&work, &src, "claude", &project);
    let lock_file = project.join(".claude/skills/skillcase.lock");
    let absolute = src.display().to_string();
    let committed = fs::read_to_string(&lock_file).unwrap().replace(&absolute, "../../skills/frete");
    fs::write(&lock_file, &committed).unwrap();
    let edited = SKILL_MD.replace("Leia", "Consulte");
    write(&src, "SKILL.md", &edited);
    let elsewhere = work.path().join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();

    let run =
        skillcase(&work).current_dir(&elsewhere).arg("sync").arg("--project").arg(&project).output().unwrap();

    assert_eq!(run.status.code(), Some(0), "{}", stdout_of(&run));
    assert!(stdout_of(&run).contains("/frete: updated"), "{}", stdout_of(&run));
    assert_eq!(fs::read_to_string(project.join(".claude/skills/frete/SKILL.md")).unwrap(), edited);
    let lock: serde_json::Value = serde_json::from_str(&fs::read_to_string(&lock_file).unwrap()).unwrap();
    assert_eq!(
        lock["skills"]["frete"]["source"]["path"], "../../skills/frete",
        "the lock keeps its relative source"
    );
}

#[cfg(unix)]
#[test]
fn a_committed_agent_folder_link_leading_out_of_the_project_is_refused_by_install_sync_and_verify() {
    let work = TempDir::new().unwrap();
    let src = skill_folder(work.path());
    let project = project(&work);
    let outside = work.path().join("outside");
    write(&outside, "skills/skillcase.lock", &hostile_lock("frete", &src.display().to_string()));
    std::os::unix::fs::symlink(&outside, project.join(".claude")).unwrap();
    let before = contents(&outside);

    let install = skillcase(&work)
        .arg("install")
        .arg(&src)
        .args(["--target", "claude", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    let sync =
        skillcase(&work).args(["sync", "--target", "claude", "--project"]).arg(&project).output().unwrap();
    let verify =
        skillcase(&work).args(["verify", "--target", "claude", "--project"]).arg(&project).output().unwrap();

    for run in [&install, &sync, &verify] {
        assert_eq!(run.status.code(), Some(1), "{}", stdout_of(run));
        assert!(stdout_of(run).starts_with("error install_target_outside_project: "), "{}", stdout_of(run));
        assert!(
            stdout_of(run).contains("/.claude is a link that leads out of the project"),
            "{}",
            stdout_of(run)
        );
    }
    assert_eq!(contents(&outside), before, "nothing written outside the project");
}

#[cfg(unix)]
#[test]
fn a_link_between_agent_folders_inside_the_project_is_followed() {
    let work = TempDir::new().unwrap();
    let src = skill_folder(work.path());
    let project = project(&work);
    fs::create_dir_all(project.join(".claude/skills")).unwrap();
    fs::create_dir_all(project.join(".agents")).unwrap();
    std::os::unix::fs::symlink("../.claude/skills", project.join(".agents/skills")).unwrap();

    install(&work, &src, "agents", &project);

    assert_eq!(listing(&project.join(".claude/skills")), ["frete", "skillcase.lock"]);
    skillcase(&work).args(["verify", "--target", "agents", "--project"]).arg(&project).assert().code(0);
}

#[cfg(unix)]
#[test]
fn a_linked_install_keeps_one_copy_and_links_the_agents_that_follow_links() {
    let work = TempDir::new().unwrap();
    let src = skill_folder(work.path());
    let project = project(&work);
    let run = skillcase(&work)
        .arg("install")
        .arg(&src)
        .args(["--link", "--target", "claude-code", "--target", "windsurf", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stdout_of(&run));
    assert!(project.join(".agents/skills/frete").symlink_metadata().unwrap().is_dir(), "the canonical copy");
    let link = fs::read_link(project.join(".claude/skills/frete")).unwrap();
    assert_eq!(link, Path::new("../../.agents/skills/frete"), "Claude Code follows links");
    assert!(
        project.join(".windsurf/skills/frete").symlink_metadata().unwrap().is_dir(),
        "not known to follow links: a copy"
    );
    assert_eq!(fs::read_to_string(project.join(".claude/skills/frete/SKILL.md")).unwrap(), SKILL_MD);

    let verify =
        |work: &TempDir| skillcase(work).arg("verify").arg("--project").arg(&project).output().unwrap();
    assert_eq!(verify(&work).status.code(), Some(0), "{}", stdout_of(&verify(&work)));
    fs::remove_file(project.join(".claude/skills/frete")).unwrap();
    std::os::unix::fs::symlink(work.path(), project.join(".claude/skills/frete")).unwrap();
    let drifted = verify(&work);
    assert_eq!(drifted.status.code(), Some(1));
    assert!(
        stdout_of(&drifted).contains(".claude/skills/frete/(link): link gone or pointing elsewhere"),
        "{}",
        stdout_of(&drifted)
    );
    skillcase(&work).arg("sync").arg("--project").arg(&project).assert().code(0);
    assert_eq!(
        fs::read_link(project.join(".claude/skills/frete")).unwrap(),
        Path::new("../../.agents/skills/frete")
    );
}

#[test]
fn a_lock_whose_link_leads_anywhere_but_the_shared_copy_is_refused() {
    let work = TempDir::new().unwrap();
    let src = skill_folder(work.path());
    let project = project(&work);
    install(&work, &src, "claude-code", &project);
    let lock_path = project.join(".claude/skills/skillcase.lock");
    let mut lock: serde_json::Value = serde_json::from_str(&fs::read_to_string(&lock_path).unwrap()).unwrap();
    lock["skills"]["frete"]["link"] = serde_json::json!("/etc");
    fs::write(&lock_path, serde_json::to_string_pretty(&lock).unwrap()).unwrap();
    let sync = skillcase(&work).arg("sync").arg("--project").arg(&project).output().unwrap();
    assert_eq!(sync.status.code(), Some(1));
    assert!(stdout_of(&sync).starts_with("error lock_invalid_entry: "), "{}", stdout_of(&sync));
    assert!(project.join(".claude/skills/frete").symlink_metadata().unwrap().is_dir(), "left as it was");
}

#[test]
fn adopt_records_a_hand_made_skill_folder_and_verify_then_tracks_it() {
    let work = TempDir::new().unwrap();
    let project = project(&work);
    write(&project, ".claude/skills/frete/SKILL.md", SKILL_MD);
    write(&project, ".claude/skills/frete/references/tabela.md", "# Tabela\n");
    let adopt = skillcase(&work)
        .args(["adopt", "--target", "claude-code", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    assert_eq!(adopt.status.code(), Some(0), "{}", stdout_of(&adopt));
    assert_eq!(
        stdout_of(&adopt),
        format!(
            "adopted {}/.claude/skills/frete, tracked against itself (no library skill of that name)\nadopted 1, refused 0\n",
            project.display()
        )
    );
    let verify =
        |work: &TempDir| skillcase(work).arg("verify").arg("--project").arg(&project).output().unwrap();
    assert_eq!(verify(&work).status.code(), Some(0));
    write(&project, ".claude/skills/frete/references/tabela.md", "# Tabela mudada\n");
    assert_eq!(verify(&work).status.code(), Some(1), "a later hand edit is drift");
}

#[test]
fn adopt_refuses_a_folder_that_is_not_a_skill_and_says_why() {
    let work = TempDir::new().unwrap();
    let project = project(&work);
    write(&project, ".claude/skills/notas/README.md", "not a skill");
    let adopt = skillcase(&work)
        .args(["adopt", "notas", "--target", "claude-code", "--format", "json", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    assert_eq!(adopt.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_str(&stdout_of(&adopt)).unwrap();
    assert_eq!(report["refused"][0]["name"], "notas");
    assert_eq!(report["refused"][0]["error"]["code"], "install_refused");
    assert!(!project.join(".claude/skills/skillcase.lock").exists());
}

#[test]
fn sync_holds_back_an_update_over_a_copy_with_its_own_changes() {
    let work = TempDir::new().unwrap();
    let src = skill_folder(work.path());
    let project = project(&work);
    install(&work, &src, "claude-code", &project);
    let installed = project.join(".claude/skills/frete");
    write(&installed, "references/tabela.md", "# Minha tabela\n");
    write(&src, "SKILL.md", &SKILL_MD.replace("Leia", "Consulte"));
    let sync = skillcase(&work).arg("sync").arg("--project").arg(&project).output().unwrap();
    assert_eq!(sync.status.code(), Some(0));
    assert!(
        stdout_of(&sync).contains("frete: held back: its source moved ahead but it has changes of its own"),
        "{}",
        stdout_of(&sync)
    );
    assert_eq!(fs::read_to_string(installed.join("references/tabela.md")).unwrap(), "# Minha tabela\n");
    assert_eq!(fs::read_to_string(installed.join("SKILL.md")).unwrap(), SKILL_MD);
}
