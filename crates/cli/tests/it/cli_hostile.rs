//! The CLI over a hostile skills directory: `read` and `read-file` never follow a skill
//! folder that is a link out of DIR, not even one swapped in after the folder was listed, just as
//! `serve` skips it; no FIFO or huge file in DIR keeps `serve` from listening or from
//! stopping on SIGTERM; and a 100 MB line to `skillcase mcp` is refused without being kept.
#![cfg(unix)]

use crate::support;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use skillcase_testkit::hostile::{exchange, make_fifo, sparse_file};
use skillcase_testkit::http::Req;
use skillcase_testkit::skills::skill_md;
use support::process::ServeProcess;

/// What every file outside DIR holds; no output may ever contain it.
const OUTSIDE: &str = "OUTSIDE-THE-DIR";

fn write(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    fs::create_dir_all(full.parent().unwrap()).unwrap();
    fs::write(full, text).unwrap();
}

/// A skill folder `name` under `root` whose body and reference hold `text`.
fn skill(root: &Path, name: &str, text: &str) {
    write(
        root,
        &format!("{name}/SKILL.md"),
        &format!("---\nname: {name}\ndescription: A skill.\n---\n{text}\n"),
    );
    write(root, &format!("{name}/references/ok.md"), text);
}

fn skillcase(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skillcase")).args(args).output().unwrap()
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

#[test]
fn read_and_read_file_refuse_a_skill_folder_that_is_a_link_out_of_dir_as_serve_skips_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (skills, outside) = (tmp.path().join("skills"), tmp.path().join("outside"));
    skill(&skills, "frete", "inside");
    skill(&outside, "linked", OUTSIDE);
    std::os::unix::fs::symlink(outside.join("linked"), skills.join("linked")).unwrap();
    let dir = skills.to_str().unwrap();

    for args in [vec!["read", dir, "linked"], vec!["read-file", dir, "linked", "references/ok.md"]] {
        let output = skillcase(&args);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {}", text(&output));
        assert!(text(&output).contains("error[skill_not_found]"), "{args:?}: {}", text(&output));
        assert!(!text(&output).contains(OUTSIDE), "{args:?}: {}", text(&output));
    }
    let prompt = skillcase(&["prompt", dir]);
    assert!(text(&prompt).contains("frete") && !text(&prompt).contains("linked"), "{}", text(&prompt));
}

/// The skill folder `frete` is traded for a link to a folder outside DIR holding a valid skill of
/// the same name, by one `RENAME_EXCHANGE` after another, while four threads run `read` and
/// `read-file` on it: the folder is listed as a real folder and may be a link a moment later, when
/// it is opened. No output may come from outside.
#[cfg(target_os = "linux")]
#[test]
fn read_and_read_file_never_follow_a_skill_folder_swapped_for_a_link_after_it_was_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let (skills, outside, stage) =
        (tmp.path().join("skills"), tmp.path().join("outside"), tmp.path().join("stage"));
    skill(&skills, "frete", "inside");
    skill(&outside, "frete", OUTSIDE);
    fs::create_dir(&stage).unwrap();
    let (target, other) = (skills.join("frete"), stage.join("frete"));
    std::os::unix::fs::symlink(outside.join("frete"), &other).unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let swapping = Arc::clone(&stop);
    let swapper = std::thread::spawn(move || {
        let mut swaps = 0u64;
        while !swapping.load(Ordering::Relaxed) {
            assert!(exchange(&target, &other), "RENAME_EXCHANGE failed");
            swaps += 1;
        }
        if swaps % 2 == 1 {
            assert!(exchange(&target, &other));
        }
        swaps
    });
    let deadline = Instant::now() + Duration::from_secs(4);
    let readers: Vec<_> = (0..4)
        .map(|i| {
            let dir = skills.to_str().unwrap().to_string();
            std::thread::spawn(move || {
                let (mut served, mut refused, mut leaked) = (0u32, 0u32, 0u32);
                while Instant::now() < deadline {
                    let output = if i % 2 == 0 {
                        skillcase(&["read", &dir, "frete"])
                    } else {
                        skillcase(&["read-file", &dir, "frete", "references/ok.md"])
                    };
                    match (output.status.success(), text(&output).contains(OUTSIDE)) {
                        (_, true) => leaked += 1,
                        (true, false) => served += 1,
                        (false, false) => refused += 1,
                    }
                }
                (served, refused, leaked)
            })
        })
        .collect();
    let (mut served, mut refused, mut leaked) = (0, 0, 0);
    for reader in readers {
        let (s, r, l) = reader.join().unwrap();
        (served, refused, leaked) = (served + s, refused + r, leaked + l);
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    assert_eq!(
        leaked, 0,
        "{leaked} outputs from outside DIR ({served} served, {refused} refused, {swaps} swaps)"
    );
    assert!(
        served > 0 && refused > 0 && swaps > 1000,
        "the race did not run: {served} served, {refused} refused, {swaps} swaps"
    );
}

/// How soon `serve` must print its port over a hostile DIR: its own start-up work and nothing of
/// DIR's (the scan runs in the background and cannot hang).
const LISTENS_WITHIN: Duration = Duration::from_secs(10);
/// How soon after SIGTERM it must be gone (as in `cli_serve.rs`).
const STOPS_WITHIN: Duration = Duration::from_secs(7);

#[tokio::test]
async fn no_fifo_or_huge_file_in_dir_keeps_serve_from_listening_or_from_stopping() {
    let skills = tempfile::tempdir().unwrap();
    let root = skills.path();
    write(root, "frete/SKILL.md", &skill_md("frete", "Calcula o frete."));
    write(root, "piped/SKILL.md", &skill_md("piped", "Its config is a FIFO."));
    make_fifo(&root.join("piped/skill.config.yaml"));
    fs::create_dir(root.join("fifo-md")).unwrap();
    make_fifo(&root.join("fifo-md/SKILL.md"));
    fs::create_dir(root.join("huge")).unwrap();
    sparse_file(&root.join("huge/SKILL.md"), b"---\nname: huge\ndescription: never closed\n", 2 << 30);
    write(root, "zero/SKILL.md", &skill_md("zero", "Its config is endless."));
    std::os::unix::fs::symlink("/dev/zero", root.join("zero/skill.config.yaml")).unwrap();

    let started = Instant::now();
    let serve = ServeProcess::start(&["--skills-dir", root.to_str().unwrap()]);
    let listening = started.elapsed();
    assert!(listening < LISTENS_WITHIN, "serve took {listening:?} to listen");
    let index = loop {
        let reply = Req::new(serve.port, "GET", "/v1/skills/index?format=agentskills")
            .header("Host", &format!("127.0.0.1:{}", serve.port))
            .bearer(&serve.token())
            .send()
            .await;
        let text = reply.json()["text"].as_str().unwrap_or_default().to_string();
        if text.contains("Calcula o frete.") {
            break text;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "the scan never listed frete:\n{text}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    for hostile in ["piped", "fifo-md", "huge", "zero"] {
        assert!(!index.contains(&format!("<name>\n{hostile}\n</name>")), "{hostile} is served:\n{index}");
    }
    let status = tokio::task::spawn_blocking(move || serve.terminate_within(STOPS_WITHIN)).await.unwrap();
    assert!(status.success(), "{status:?}");
}

/// The binary with its own data directory and home folder under `work`.
fn skillcase_in(work: &Path) -> Command {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("skillcase"));
    command.env("SKILLCASE_DATA_DIR", work.join("data")).env("HOME", work.join("home"));
    command
}

/// A skill folder whose root files are written (and fsynced) one by one before its `references`
/// folder is made: a wide window in which to plant a link in the staging folder.
fn slow_to_stage(root: &Path) -> std::path::PathBuf {
    let dir = root.join("src/frete");
    write(&dir, "SKILL.md", &skill_md("frete", "Calcula o frete."));
    for n in 0..20 {
        write(&dir, &format!("notes-{n:02}.md"), "notes\n");
    }
    write(&dir, "references/tabela.md", "# Tabela\n");
    dir
}

/// While `skillcase install` runs again and again, another process watches the agent folder and
/// plants `references` → a folder outside in every staging folder it sees, before the writer makes
/// that folder: a writer that followed it would put `tabela.md` outside. Not a byte may land there.
#[test]
fn a_link_planted_inside_the_staging_folder_never_redirects_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path();
    let src = slow_to_stage(work);
    let (project, outside) = (work.join("project"), work.join("outside"));
    let skills = project.join(".claude/skills");
    fs::create_dir_all(&skills).unwrap();
    fs::create_dir_all(&outside).unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let planting = Arc::clone(&stop);
    let (watched, target) = (skills.clone(), outside.clone());
    let planter = std::thread::spawn(move || {
        let mut planted = 0u64;
        while !planting.load(Ordering::Relaxed) {
            for entry in fs::read_dir(&watched).into_iter().flatten().flatten() {
                if entry.file_name().to_string_lossy().starts_with(".skillcase-staging-")
                    && std::os::unix::fs::symlink(&target, entry.path().join("references")).is_ok()
                {
                    planted += 1;
                }
            }
        }
        planted
    });
    let deadline = Instant::now() + Duration::from_secs(6);
    let (mut installed, mut refused, mut runs) = (0u32, 0u32, 0u32);
    while Instant::now() < deadline && (refused == 0 || runs < 20) {
        let output = skillcase_in(work)
            .arg("install")
            .arg(&src)
            .args(["--target", "claude", "--force", "--project"])
            .arg(&project)
            .output()
            .unwrap();
        runs += 1;
        if output.status.success() {
            installed += 1;
        } else {
            assert!(text(&output).contains("error staging_failed"), "{}", text(&output));
            refused += 1;
        }
        let leaked: Vec<_> = fs::read_dir(&outside).unwrap().flatten().map(|e| e.file_name()).collect();
        assert!(leaked.is_empty(), "written outside through a planted link: {leaked:?}");
    }
    stop.store(true, Ordering::Relaxed);
    let planted = planter.join().unwrap();
    assert!(
        planted > 0 && refused > 0,
        "the race did not run: {planted} links planted, {refused} installs refused, {installed} done"
    );
}

/// The lock is traded for a FIFO, by one `RENAME_EXCHANGE` after another, while `verify` runs
/// again and again: a reader that checked the path and then opened it would wait forever for a
/// writer. Every run must end — clean, or refusing the FIFO — within seconds.
#[cfg(target_os = "linux")]
#[test]
fn verify_never_hangs_on_a_lock_swapped_for_a_fifo() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().to_path_buf();
    let src = work.join("src/frete");
    write(&src, "SKILL.md", &skill_md("frete", "Calcula o frete."));
    let project = work.join("project");
    fs::create_dir_all(&project).unwrap();
    let installed = skillcase_in(&work)
        .arg("install")
        .arg(&src)
        .args(["--target", "claude", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    assert!(installed.status.success(), "{}", text(&installed));
    let lock = project.join(".claude/skills/skillcase.lock");
    let fifo = work.join("lock.fifo");
    make_fifo(&fifo);

    let stop = Arc::new(AtomicBool::new(false));
    let swapping = Arc::clone(&stop);
    let (a, b) = (lock.clone(), fifo.clone());
    let swapper = std::thread::spawn(move || {
        let mut swaps = 0u64;
        while !swapping.load(Ordering::Relaxed) {
            assert!(exchange(&a, &b), "RENAME_EXCHANGE failed");
            swaps += 1;
        }
        if swaps % 2 == 1 {
            assert!(exchange(&a, &b));
        }
        swaps
    });
    let deadline = Instant::now() + Duration::from_secs(4);
    let checkers: Vec<_> = (0..3)
        .map(|_| {
            let (work, project) = (work.clone(), project.clone());
            std::thread::spawn(move || {
                let (mut clean, mut refused, mut hung) = (0u32, 0u32, 0u32);
                while Instant::now() < deadline {
                    let mut child = skillcase_in(&work)
                        .args(["verify", "--target", "claude", "--project"])
                        .arg(&project)
                        .stdout(std::process::Stdio::piped())
                        .stderr(std::process::Stdio::null())
                        .spawn()
                        .unwrap();
                    let started = Instant::now();
                    let status = loop {
                        if let Some(status) = child.try_wait().unwrap() {
                            break Some(status);
                        }
                        if started.elapsed() > Duration::from_secs(10) {
                            child.kill().unwrap();
                            child.wait().unwrap();
                            break None;
                        }
                        std::thread::sleep(Duration::from_millis(5));
                    };
                    let mut out = String::new();
                    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
                    match status {
                        None => hung += 1,
                        Some(s) if s.success() => clean += 1,
                        Some(_) => {
                            assert!(out.starts_with("error lock_corrupt: "), "{out}");
                            refused += 1;
                        }
                    }
                }
                (clean, refused, hung)
            })
        })
        .collect();
    let (mut clean, mut refused, mut hung) = (0, 0, 0);
    for checker in checkers {
        let (c, r, h) = checker.join().unwrap();
        (clean, refused, hung) = (clean + c, refused + r, hung + h);
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    assert_eq!(hung, 0, "{hung} verify runs hung ({clean} clean, {refused} refused, {swaps} swaps)");
    assert!(
        clean > 0 && refused > 0 && swaps > 1000,
        "the race did not run: {clean} clean, {refused} refused, {swaps} swaps"
    );
}

/// The peak resident memory of process `pid`, in MB.
fn peak_mb(pid: u32) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    kb / 1024
}

#[test]
fn a_100_mb_line_to_skillcase_mcp_is_answered_mcp_line_too_long_without_being_held_in_memory() {
    use std::io::{BufRead, BufReader, Write};
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir(tmp.path().join("skills")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_skillcase"))
        .args(["mcp", "--skills-dir"])
        .arg(tmp.path().join("skills"))
        .env("SKILLCASE_DATA_DIR", tmp.path().join("data"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut to_server = child.stdin.take().unwrap();
    let from_server = BufReader::new(child.stdout.take().unwrap());
    let (lines, answers) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in from_server.lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    let answer = || {
        let line = answers.recv_timeout(Duration::from_secs(30)).expect("skillcase mcp answered within 30 s");
        serde_json::from_str::<serde_json::Value>(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    };
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"flood","version":"1"}}}"#;
    writeln!(to_server, "{initialize}").unwrap();
    assert_eq!(answer()["id"], 1);
    writeln!(to_server, r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#).unwrap();

    let megabyte = vec![b'x'; 1 << 20];
    for _ in 0..100 {
        to_server.write_all(&megabyte).unwrap();
    }
    to_server.write_all(b"\n").unwrap();
    let refused = answer();
    assert_eq!(refused["error"]["data"]["code"], "mcp_line_too_long", "{refused}");
    writeln!(to_server, r#"{{"jsonrpc":"2.0","id":2,"method":"ping"}}"#).unwrap();
    assert_eq!(answer()["id"], 2, "the next message is served");
    let peak = peak_mb(child.id());
    assert!(peak < 256, "skillcase mcp peaked at {peak} MB for a 100 MB line");
    drop(to_server);
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "skillcase mcp did not stop when its input closed");
        std::thread::sleep(Duration::from_millis(50));
    }
}
