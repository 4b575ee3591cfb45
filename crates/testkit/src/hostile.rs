//! Hostile files for the readers' tests: a FIFO, a sparse file of gigabytes that costs no disk,
//! the process's peak memory, and a [`Swapper`] that keeps replacing a path, by rename, with a
//! regular file and with something else (a link to a file outside, a FIFO), as an attacker with
//! write access to the skills directory would.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Makes a FIFO (named pipe) at `path`.
#[cfg(unix)]
pub fn make_fifo(path: &Path) {
    use rustix::fs::{mknodat, FileType, Mode, CWD};
    mknodat(CWD, path, FileType::Fifo, Mode::from_raw_mode(0o644), 0).expect("mkfifo");
}

/// Writes `head` at the start of a file that is `len` bytes long, the rest a hole: a file of
/// gigabytes whose blocks are never allocated.
pub fn sparse_file(path: &Path, head: &[u8], len: u64) {
    fs::write(path, head).unwrap();
    fs::OpenOptions::new().write(true).open(path).unwrap().set_len(len).unwrap();
}

/// Starts a new peak for [`peak_resident_bytes`] (Linux: `5` to `/proc/self/clear_refs`), so a
/// test sees its own peak rather than an earlier test's in the same process.
pub fn reset_peak_resident() {
    let _ = fs::write("/proc/self/clear_refs", "5");
}

/// The process's peak resident memory in bytes (`VmHWM`), where the system reports it.
pub fn peak_resident_bytes() -> Option<u64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The peak resident memory in bytes (`VmHWM`) of the running process `pid`, where the system
/// reports it.
pub fn peak_resident_bytes_of(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Runs `scenario` where file permissions bind, so a `chmod 000` folder really is unreadable:
/// directly when this process is not root; as root (CI runs as root, and root reads such a folder
/// anyway) by running the test named `test` (its full name as the harness lists it,
/// `module::name`) again, in a child process of this same test binary, as the user `nobody`
/// (65534), and failing if it fails there. When the system does not let root
/// switch users (a container without `CAP_SETUID`), it says so and runs nothing.
#[cfg(unix)]
pub fn as_unprivileged(test: &str, scenario: impl FnOnce()) {
    use std::os::unix::process::CommandExt;
    if !rustix::process::geteuid().is_root() {
        scenario();
        return;
    }
    const NOBODY: u32 = 65534;
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env("TMPDIR", std::env::temp_dir())
        .uid(NOBODY)
        .gid(NOBODY)
        .output();
    let output = match child {
        Ok(output) => output,
        Err(e) => {
            eprintln!("skipped: root could not run `{test}` as nobody ({e})");
            return;
        }
    };
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "`{test}` failed as nobody:\n{stdout}\n{stderr}");
    assert!(stdout.contains("1 passed"), "`{test}` did not run as nobody:\n{stdout}\n{stderr}");
}

/// What a [`Swapper`] puts at the path between two regular files.
#[derive(Debug, Clone)]
pub enum Intruder {
    /// A symbolic link to this file.
    Link(PathBuf),
    /// A FIFO nobody writes to.
    Fifo,
}

/// A thread that replaces `target` over and over, from a staging folder on the same file system:
/// the regular file (holding `text`) and the intruder trade places by rename, as fast as the
/// system allows (one `renameat2(RENAME_EXCHANGE)` per swap on Linux, else two renames and a
/// rewrite), and the regular file is in place again when it stops.
pub struct Swapper {
    stop: Arc<AtomicBool>,
    swaps: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

impl Swapper {
    /// Starts swapping `target` (whose regular content is `text`), staging in `staging`.
    pub fn start(target: &Path, text: &str, intruder: Intruder, staging: &Path) -> Swapper {
        fs::create_dir_all(staging).unwrap();
        let (stop, swaps) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicU64::new(0)));
        let (target, text, staging) = (target.to_path_buf(), text.to_string(), staging.to_path_buf());
        let (stopping, counting) = (Arc::clone(&stop), Arc::clone(&swaps));
        let thread = std::thread::spawn(move || {
            let other = staging.join("other");
            let make_intruder = || {
                let _ = fs::remove_file(&other);
                match &intruder {
                    #[cfg(unix)]
                    Intruder::Link(to) => std::os::unix::fs::symlink(to, &other).unwrap(),
                    #[cfg(unix)]
                    Intruder::Fifo => make_fifo(&other),
                    #[cfg(not(unix))]
                    _ => unimplemented!("hostile swaps need Unix"),
                }
            };
            make_intruder();
            while !stopping.load(Ordering::Relaxed) {
                if !exchange(&target, &other) {
                    fs::rename(&other, &target).unwrap();
                    let file = staging.join("file");
                    fs::write(&file, &text).unwrap();
                    fs::rename(&file, &target).unwrap();
                    make_intruder();
                } else {
                    assert!(exchange(&target, &other), "the second exchange failed");
                }
                counting.fetch_add(1, Ordering::Relaxed);
            }
        });
        Swapper { stop, swaps, thread: Some(thread) }
    }

    /// Stops swapping (the target is left a regular file) and returns how many swaps were made.
    pub fn stop(mut self) -> u64 {
        self.halt();
        self.swaps.load(Ordering::Relaxed)
    }

    fn halt(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.join().expect("the swapper failed");
        }
    }
}

/// Swaps the two paths (files, folders or links) atomically where the system can
/// (`RENAME_EXCHANGE`); false elsewhere. Public for races the [`Swapper`] does not cover, such as
/// a whole skill folder traded for a link.
pub fn exchange(a: &Path, b: &Path) -> bool {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use rustix::fs::{renameat_with, RenameFlags, CWD};
        renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).is_ok()
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let _ = (a, b);
        false
    }
}

impl Drop for Swapper {
    fn drop(&mut self) {
        self.halt();
    }
}
