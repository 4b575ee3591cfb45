//! MCP clients we did not write, run against the real binary: the Python MCP SDK and FastMCP in
//! a virtualenv made once under `target/mcp-clients/` (reused while `requirements.txt` is
//! unchanged, so reruns are fast and need no network), and the MCP Inspector CLI installed by
//! npm into the same folder. The fixture is a skills folder with a visible skill that has
//! references, a route, a template and a binary asset; a hidden one; a broken one; and 250
//! one-file skills so `skills/list` needs two pages.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, OnceLock};

use serde_json::Value;

/// The scripts and the pinned requirements, beside this file's folder.
pub fn scripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp-clients")
}

/// `target/` of the build running these tests (the test binary is `target/<profile>/deps/…`).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors().nth(3).expect("target/<profile>/deps/<test>").to_path_buf()
}

/// The folder that caches the clients between runs.
pub fn cache_dir() -> PathBuf {
    target_dir().join("mcp-clients")
}

fn run_checked(command: &mut Command, what: &str) {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(output.status.success(), "{what} failed: {}", String::from_utf8_lossy(&output.stderr));
}

/// The virtualenv's Python, with `mcp` and `fastmcp` installed (made on first use).
pub fn python() -> PathBuf {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    static MAKING: Mutex<()> = Mutex::new(());
    PYTHON
        .get_or_init(|| {
            let _making = MAKING.lock().unwrap_or_else(|p| p.into_inner());
            let requirements = std::fs::read_to_string(scripts_dir().join("requirements.txt")).unwrap();
            let venv = cache_dir().join("venv");
            let python = venv.join("bin/python");
            let marker = venv.join("installed-requirements.txt");
            if std::fs::read_to_string(&marker).ok().as_deref() == Some(requirements.as_str())
                && python.exists()
            {
                return python;
            }
            let _ = std::fs::remove_dir_all(&venv);
            std::fs::create_dir_all(cache_dir()).unwrap();
            run_checked(Command::new("python3").args(["-m", "venv"]).arg(&venv), "python3 -m venv");
            run_checked(
                Command::new(&python)
                    .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r"])
                    .arg(scripts_dir().join("requirements.txt")),
                "pip install -r requirements.txt",
            );
            std::fs::write(&marker, requirements).unwrap();
            python
        })
        .clone()
}

/// The MCP Inspector CLI's entry point (`@modelcontextprotocol/inspector-cli`'s
/// `build/index.js`), installed on first use. It finds its own `package.json` relative to the
/// working directory, so run it from the folder of the script.
pub fn inspector() -> PathBuf {
    static INSPECTOR: OnceLock<PathBuf> = OnceLock::new();
    INSPECTOR
        .get_or_init(|| {
            let prefix = cache_dir().join("npm");
            let bin = prefix.join("node_modules/@modelcontextprotocol/inspector-cli/build/index.js");
            if !bin.exists() {
                std::fs::create_dir_all(&prefix).unwrap();
                run_checked(
                    Command::new("npm")
                        .args(["install", "--no-audit", "--no-fund", "--silent", "--prefix"])
                        .arg(&prefix)
                        .arg(format!("@modelcontextprotocol/inspector-cli@{INSPECTOR_VERSION}")),
                    "npm install @modelcontextprotocol/inspector-cli",
                );
            }
            bin
        })
        .clone()
}

/// The Inspector CLI release the tests pin.
pub const INSPECTOR_VERSION: &str = "1.0.3";

/// A skills folder and a data directory for one test.
pub struct Fixture {
    pub dir: tempfile::TempDir,
}

const VISIBLE_MD: &str = "---
name: shipping-policy
description: Prazos e custos de frete. Use quando o cliente perguntar sobre entrega.
license: MIT
metadata:
  owner: logistica
---
# Frete

Consulte a tabela de prazos antes de responder.
";

const VISIBLE_CONFIG: &str = "matcher:
  any_keywords: [frete, entrega]
  probe_keywords: [envio]
references:
  required: [references/prazos.md]
  routes:
    - match: [internacional]
      required_refs: [references/internacional.md]
";

/// A PNG header and every byte value: not UTF-8, so it travels as a blob.
pub fn logo() -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.extend(0u8..=255);
    bytes
}

impl Fixture {
    pub fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let skills = dir.path().join("skills");
        skillcase_testkit::skills::write_skill(
            &skills,
            "shipping-policy",
            &[
                ("SKILL.md", VISIBLE_MD),
                ("skill.config.yaml", VISIBLE_CONFIG),
                ("references/prazos.md", "Sudeste: 3 dias úteis.\n"),
                ("references/internacional.md", "Exterior: 15 dias úteis.\r\nTaxas à parte.\r\n"),
                ("templates/resposta.md", "Olá {{nome}}, seu pedido chega em {{prazo}}.\n"),
            ],
        );
        std::fs::create_dir_all(skills.join("shipping-policy/assets")).unwrap();
        std::fs::write(skills.join("shipping-policy/assets/logo.png"), logo()).unwrap();
        skillcase_testkit::skills::write_skill(
            &skills,
            "hidden-helper",
            &[
                (
                    "SKILL.md",
                    &skillcase_testkit::skills::skill_md(
                        "hidden-helper",
                        "Internal helper, read by name only.",
                    ),
                ),
                ("skill.config.yaml", "disable-model-invocation: true\n"),
            ],
        );
        skillcase_testkit::skills::write_skill(
            &skills,
            "broken-skill",
            &[("SKILL.md", "---\nname: broken-skill\n---\nNo description.\n")],
        );
        for n in 0..250 {
            let name = format!("filler-{n:03}");
            skillcase_testkit::skills::write_simple(
                &skills,
                &name,
                &format!("Filler skill number {n} for paging."),
            );
        }
        std::fs::create_dir_all(dir.path().join("data")).unwrap();
        Fixture { dir }
    }

    pub fn skills_dir(&self) -> PathBuf {
        self.dir.path().join("skills")
    }

    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }
}

/// Where a client reaches Skillcase.
pub enum Target<'a> {
    /// `skillcase mcp`, started by the client.
    Stdio,
    /// A running `skillcase serve`: its port and token.
    Http { port: u16, token: &'a str, data_dir: &'a Path },
}

/// Runs `script scenario` against `target` and returns the JSON object it printed last.
pub fn run(script: &str, scenario: &str, mode: &str, target: Target<'_>, fixture: &Fixture) -> Value {
    let mut command = Command::new(python());
    command.current_dir(scripts_dir()).arg(script).arg(scenario).args(["--mode", mode]);
    command.arg("--skills-dir").arg(fixture.skills_dir());
    command.arg("--catalog-dir").arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skills-examples"));
    match target {
        Target::Stdio => {
            command.arg("--stdio").arg(env!("CARGO_BIN_EXE_skillcase"));
            command.arg("--data-dir").arg(fixture.data_dir());
        }
        Target::Http { port, token, data_dir } => {
            command.args(["--http", &format!("http://127.0.0.1:{port}/mcp"), "--token", token]);
            command.arg("--data-dir").arg(data_dir);
        }
    }
    let output = command.stdin(Stdio::null()).output().unwrap();
    last_json(&output, &format!("{script} {scenario} --mode {mode}"))
}

fn last_json(output: &Output, what: &str) -> Value {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{what} failed:\n{}\n{}",
        stdout,
        String::from_utf8_lossy(&output.stderr)
    );
    let line = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{what} printed {line:?}: {e}"))
}
