//! The `skills` CLI from npm (the installer most people use for agent skills), installed once
//! under `target/skills-cli/` and run offline against the real binary's folders: telemetry off,
//! every agent named, local sources only, so it never touches the network or picks agents itself.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The release the interop tests pin: the newest that runs on Debian 12's Node 20.
pub const SKILLS_CLI_VERSION: &str = "1.5.18";

fn cache_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors().nth(3).expect("target/<profile>/deps/<test>").join("skills-cli")
}

/// The CLI's entry point, installed by npm on first use.
fn bin() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let prefix = cache_dir().join(SKILLS_CLI_VERSION);
        let bin = prefix.join("node_modules/.bin/skills");
        if !bin.exists() {
            std::fs::create_dir_all(&prefix).unwrap();
            let output = Command::new("npm")
                .args(["install", "--no-audit", "--no-fund", "--silent", "--prefix"])
                .arg(&prefix)
                .arg(format!("skills@{SKILLS_CLI_VERSION}"))
                .output()
                .expect("npm runs");
            assert!(
                output.status.success(),
                "npm install skills: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        bin
    })
    .clone()
}

/// `skills ARGS…` run in `cwd` with `home` as HOME, offline; panics unless it exits 0.
pub fn skills(cwd: &Path, home: &Path, args: &[&str]) -> String {
    let output: Output = Command::new(bin())
        .args(args)
        .current_dir(cwd)
        .env("HOME", home)
        .env("DISABLE_TELEMETRY", "1")
        .env("DO_NOT_TRACK", "1")
        .env("NO_COLOR", "1")
        .env_remove("XDG_STATE_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("CLAUDECODE")
        .env_remove("CODEX_HOME")
        .env_remove("CLAUDE_CONFIG_DIR")
        .output()
        .expect("the skills CLI runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "skills {args:?}: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}
