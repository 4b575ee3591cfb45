//! `skillcase export` run as the real binary: a skill folder or a library skill becomes a
//! `.skill` zip with the skill's folder on top and OS junk and caches left out, which the `claude`
//! profile accepts and which imports back to the same files and digests; a skill that breaks
//! Anthropic's upload rules is refused and nothing is written.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use sha2::{Digest, Sha256};
use tempfile::TempDir;

const SKILL_MD: &str = "---\nname: frete\ndescription: Calcula o frete por CEP. Use quando o cliente pergunta do frete.\n---\n# Frete\n\nLeia references/tabela.md.\n";

/// The binary with its own data directory.
fn skillcase(data: &TempDir) -> Command {
    let mut command = Command::cargo_bin("skillcase").unwrap();
    command.env("SKILLCASE_DATA_DIR", data.path());
    command
}

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

/// A skill folder `frete` with real content and every kind of junk and cache beside it.
fn skill_with_junk(root: &Path) -> PathBuf {
    let dir = root.join("frete");
    write(&dir, "SKILL.md", SKILL_MD.as_bytes());
    write(&dir, "references/tabela.md", b"# Tabela\n\n| CEP | prazo |\n");
    write(&dir, "assets/mapa.png", b"\x89PNG\r\n\x1a\nnot really a png");
    for junk in [
        ".DS_Store",
        "references/._tabela.md",
        "Thumbs.db",
        "desktop.ini",
        "__MACOSX/frete/._SKILL.md",
        "scripts/__pycache__/calc.cpython-312.pyc",
        "scripts/calc.pyc",
        ".pytest_cache/v/cache/nodeids",
        "node_modules/left-pad/index.js",
        ".git/HEAD",
    ] {
        write(&dir, junk, b"junk");
    }
    dir
}

fn entries(zip: &Path) -> Vec<String> {
    let mut archive = zip::ZipArchive::new(fs::File::open(zip).unwrap()).unwrap();
    let mut names: Vec<String> =
        (0..archive.len()).map(|i| archive.by_index(i).unwrap().name().unwrap().to_string()).collect();
    names.sort();
    names
}

fn stdout_of(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[test]
fn a_folder_exports_with_its_folder_on_top_and_junk_and_caches_left_out() {
    let work = TempDir::new().unwrap();
    let data = TempDir::new().unwrap();
    let dir = skill_with_junk(work.path());
    let out = work.path().join("frete.skill");
    let run = skillcase(&data).arg("export").arg(&dir).arg("-o").arg(&out).output().unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stdout_of(&run));
    assert_eq!(
        stdout_of(&run),
        format!(
            "exported frete to {} (3 files, {} bytes)\n",
            out.display(),
            fs::metadata(&out).unwrap().len()
        )
    );
    assert_eq!(entries(&out), ["frete/SKILL.md", "frete/assets/mapa.png", "frete/references/tabela.md"]);
}

#[test]
fn the_exported_package_passes_the_claude_profile() {
    let work = TempDir::new().unwrap();
    let data = TempDir::new().unwrap();
    let out = work.path().join("frete.skill");
    skillcase(&data).arg("export").arg(skill_with_junk(work.path())).arg("-o").arg(&out).assert().code(0);
    let check = skillcase(&data).args(["validate", "--profile", "claude"]).arg(&out).output().unwrap();
    assert_eq!(stdout_of(&check), "ok: 1 skills checked, 1 valid, 0 invalid; 0 errors, 0 warnings\n");
}

#[test]
fn importing_the_exported_package_gives_back_the_same_files_and_digests() {
    let work = TempDir::new().unwrap();
    let data = TempDir::new().unwrap();
    let dir = skill_with_junk(work.path());
    let out = work.path().join("frete.skill");
    skillcase(&data).arg("export").arg(&dir).arg("-o").arg(&out).assert().code(0);
    let skills = work.path().join("skills");
    let import = skillcase(&data)
        .args(["import", "--format", "json"])
        .arg(&out)
        .arg("--into")
        .arg(&skills)
        .output()
        .unwrap();
    assert_eq!(import.status.code(), Some(0), "{}", stdout_of(&import));
    let report: serde_json::Value = serde_json::from_str(&stdout_of(&import)).unwrap();
    let imported: Vec<(String, String)> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["path"].as_str().unwrap().to_string(), f["short_hash"].as_str().unwrap().to_string()))
        .collect();
    let source: Vec<(String, String)> = ["SKILL.md", "assets/mapa.png", "references/tabela.md"]
        .iter()
        .map(|p| {
            (p.to_string(), format!("{:x}", Sha256::digest(fs::read(dir.join(p)).unwrap()))[..12].to_string())
        })
        .collect();
    assert_eq!(imported, source);
    for (path, _) in &source {
        assert_eq!(fs::read(skills.join("frete").join(path)).unwrap(), fs::read(dir.join(path)).unwrap());
    }
}

#[test]
fn a_library_skill_exports_by_name_to_name_dot_skill() {
    let work = TempDir::new().unwrap();
    let data = TempDir::new().unwrap();
    let skills = work.path().join("skills");
    write(&skills, "frete/SKILL.md", SKILL_MD.as_bytes());
    let run = skillcase(&data)
        .env("SKILLCASE_SKILLS_DIR", &skills)
        .current_dir(work.path())
        .args(["export", "frete"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stdout_of(&run));
    assert_eq!(entries(&work.path().join("frete.skill")), ["frete/SKILL.md"]);
}

#[cfg(unix)]
#[test]
fn a_script_keeps_its_exec_bit_in_the_package() {
    use std::os::unix::fs::PermissionsExt;
    let work = TempDir::new().unwrap();
    let data = TempDir::new().unwrap();
    let dir = work.path().join("frete");
    write(&dir, "SKILL.md", SKILL_MD.as_bytes());
    write(&dir, "scripts/calc.sh", b"#!/bin/sh\necho 10\n");
    fs::set_permissions(dir.join("scripts/calc.sh"), fs::Permissions::from_mode(0o755)).unwrap();
    let out = work.path().join("frete.skill");
    skillcase(&data).arg("export").arg(&dir).arg("-o").arg(&out).assert().code(0);
    let mut archive = zip::ZipArchive::new(fs::File::open(&out).unwrap()).unwrap();
    let script = archive.by_name("frete/scripts/calc.sh").unwrap();
    assert_eq!(script.unix_mode().unwrap() & 0o777, 0o755);
    let mut skill_md = String::new();
    drop(script);
    archive.by_name("frete/SKILL.md").unwrap().read_to_string(&mut skill_md).unwrap();
    assert_eq!(skill_md, SKILL_MD);
}

#[test]
fn a_skill_breaking_the_upload_rules_is_refused_and_nothing_is_written() {
    let work = TempDir::new().unwrap();
    let data = TempDir::new().unwrap();
    let dir = work.path().join("claude-frete");
    write(&dir, "SKILL.md", SKILL_MD.replace("name: frete", "name: claude-frete").as_bytes());
    write(&dir, "assets/old.zip", b"PK\x05\x06");
    let out = work.path().join("out.skill");
    let run = skillcase(&data).arg("export").arg(&dir).arg("-o").arg(&out).output().unwrap();
    assert_eq!(run.status.code(), Some(1));
    let text = stdout_of(&run);
    assert!(text.contains("SKILL.md:2:7 error name_reserved_word"), "{text}");
    assert!(text.contains("assets/old.zip error nested_archive"), "{text}");
    assert!(text.ends_with("error export_refused: the skill does not meet Anthropic's upload rules: name_reserved_word, nested_archive\n"), "{text}");
    assert!(!out.exists());
}

/// 25 sparse files of 60 MB (1.5 GB, none of it on disk) against Anthropic's 30 MB: refused
/// from the files' sizes with nothing written, and no child this test binary waited for came near
/// reading them (which takes 1.5 GB).
#[cfg(target_os = "linux")]
#[test]
fn a_folder_over_the_upload_limit_is_refused_from_its_sizes_unread() {
    let work = TempDir::new().unwrap();
    let data = TempDir::new().unwrap();
    let dir = work.path().join("frete");
    write(&dir, "SKILL.md", SKILL_MD.as_bytes());
    write(&dir, "references/tabela.md", b"# Tabela\n");
    for i in 0..25 {
        let file = fs::File::create(dir.join(format!("references/parte-{i:02}.md"))).unwrap();
        file.set_len(60 << 20).unwrap();
    }
    let out = work.path().join("out.skill");
    let run = skillcase(&data).arg("export").arg(&dir).arg("-o").arg(&out).output().unwrap();
    assert_eq!(run.status.code(), Some(1));
    let text = String::from_utf8(run.stderr.clone()).unwrap() + &stdout_of(&run);
    assert!(text.contains("package_too_large"), "{text}");
    assert!(text.contains(&format!("at most {} bytes", 30 << 20)), "{text}");
    assert!(!out.exists());
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) }, 0);
    let peak = usage.ru_maxrss as u64 * 1024;
    assert!(peak < 512 * 1024 * 1024, "a child's peak memory was {peak} bytes");
}
