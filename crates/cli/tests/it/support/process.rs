//! A real `skillcase serve` process over a temporary data directory.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The running binary, stopped (killed) when dropped if the test did not stop it.
pub struct ServeProcess {
    child: Child,
    pub port: u16,
    pub data_dir: tempfile::TempDir,
}

impl ServeProcess {
    /// Starts `skillcase serve --port 0 ARGS...` and waits for its `listening on` line.
    pub fn start(args: &[&str]) -> ServeProcess {
        let data_dir = tempfile::tempdir().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_skillcase"))
            .args(["serve", "--port", "0"])
            .args(args)
            .env("SKILLCASE_DATA_DIR", data_dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut first = String::new();
            let _ = BufReader::new(stdout).read_line(&mut first);
            let _ = tx.send(first);
        });
        let line = rx.recv_timeout(Duration::from_secs(30)).expect("skillcase serve printed nothing in 30 s");
        let parsed =
            line.trim_end().strip_prefix("listening on http://127.0.0.1:").and_then(|p| p.parse().ok());
        let Some(port) = parsed else {
            let _ = child.kill();
            let output = child.wait_with_output();
            panic!("unexpected first line {line:?}; stderr: {output:?}")
        };
        ServeProcess { child, port, data_dir }
    }

    /// The token the server created in its data directory.
    pub fn token(&self) -> String {
        std::fs::read_to_string(self.data_dir.path().join("api-token")).unwrap().trim().to_string()
    }

    /// Sends SIGTERM and waits (at most 10 s) for the process to exit.
    pub fn terminate(self) -> ExitStatus {
        self.terminate_within(Duration::from_secs(10))
    }

    /// Sends SIGTERM and fails the test unless the process exits within `limit`.
    pub fn terminate_within(mut self, limit: Duration) -> ExitStatus {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "skillcase serve did not stop within {limit:?} of SIGTERM");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
