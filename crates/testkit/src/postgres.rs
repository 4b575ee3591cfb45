//! A throw-away PostgreSQL for tests: Debian's server binaries (`/usr/lib/postgresql/N/bin`) run
//! a cluster in a temporary directory on 127.0.0.1, as the `postgres` user when the tests run as
//! root (the server refuses root). One cluster per test process, each test in a database of its
//! own. A watchdog shell stops the server and removes the directory when the test process ends,
//! however it ends. A benchmark may keep its cluster's data between runs instead
//! ([`Cluster::keep_in`]).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// The role every test connects as (trusted: no password on loopback).
pub const ROLE: &str = "skillcase";

/// A running test cluster.
pub struct Cluster {
    port: u16,
    bin: PathBuf,
    dir: PathBuf,
    run_as: Option<&'static str>,
}

static SHARED: OnceLock<Cluster> = OnceLock::new();
static DATABASES: AtomicU32 = AtomicU32::new(0);

impl Cluster {
    /// The process's cluster, started on first use.
    pub fn shared() -> &'static Cluster {
        SHARED.get_or_init(Cluster::start)
    }

    /// Starts a new cluster (stopped when this process ends).
    pub fn start() -> Cluster {
        let dir = tempfile::Builder::new().prefix("skillcase-pg-").tempdir().unwrap().keep();
        let cluster = Cluster::in_dir(dir);
        cluster.init();
        cluster.watch_parent();
        cluster.run();
        cluster
    }

    /// Starts a cluster whose data stays in `dir`: made there the first time, found there the
    /// next, so a benchmark fills its large database once and later runs reuse it. The server
    /// is stopped by [`Cluster::stop`] or, at the latest, when this process ends; the data stays.
    pub fn keep_in(dir: &Path) -> Cluster {
        std::fs::create_dir_all(dir).unwrap();
        let cluster = Cluster::in_dir(dir.to_path_buf());
        if !Path::new(&cluster.data()).join("PG_VERSION").exists() {
            cluster.init();
        }
        cluster.run();
        cluster.stop_with_parent();
        cluster
    }

    /// Stops the server now (a fast shutdown: a checkpoint, so a kept cluster starts next time
    /// without recovery).
    pub fn stop(&self) {
        self.pg("pg_ctl").args(["-D", &self.data(), "-m", "fast", "-w", "stop"]).status_ok("pg_ctl stop");
    }

    /// The port the server listens on, on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A new empty database, as a `postgres://` URL.
    pub fn fresh_database(&self) -> String {
        let name = format!("test_{}_{}", std::process::id(), DATABASES.fetch_add(1, Ordering::SeqCst));
        self.psql("postgres", &format!("CREATE DATABASE {name}"));
        self.url(&name)
    }

    /// The URL of `database` on this cluster.
    pub fn url(&self, database: &str) -> String {
        format!("postgres://{ROLE}@127.0.0.1:{}/{database}", self.port)
    }

    /// Runs one SQL command in `database` with `psql`, returning its unaligned output.
    pub fn psql(&self, database: &str, sql: &str) -> String {
        self.try_psql(database, sql).unwrap_or_else(|error| panic!("psql {sql:?}: {error}"))
    }

    /// [`Cluster::psql`], the server's error message when the command fails.
    pub fn try_psql(&self, database: &str, sql: &str) -> Result<String, String> {
        let out = Command::new(self.bin.join("psql"))
            .args(["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-U", ROLE])
            .args(["-p", &self.port.to_string(), "-d", database, "-c", sql])
            .output()
            .unwrap();
        match out.status.success() {
            true => Ok(String::from_utf8(out.stdout).unwrap().trim().to_string()),
            false => Err(String::from_utf8_lossy(&out.stderr).into_owned()),
        }
    }

    /// A cluster in `dir`, owned by the user the server runs as (it refuses root).
    fn in_dir(dir: PathBuf) -> Cluster {
        let bin = server_bin().unwrap_or_else(|| {
            panic!("PostgreSQL's server is not installed: apt-get install postgresql (scripts/test does)")
        });
        let run_as = is_root().then_some("postgres");
        if let Some(user) = run_as {
            run(Command::new("chown").arg(user).arg(&dir), "chown");
        }
        Cluster { port: free_port(), bin, dir, run_as }
    }

    /// Makes the cluster's data directory, with the trusted role every test connects as.
    fn init(&self) {
        self.pg("initdb")
            .args(["-D", &self.data(), "-U", ROLE, "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"])
            .status_ok("initdb");
    }

    /// Starts the server on the cluster's port, durability traded for speed (nothing here
    /// outlives a crash that matters).
    fn run(&self) {
        let options = format!(
            "-p {} -c listen_addresses=127.0.0.1 -k {} -c fsync=off -c synchronous_commit=off \
             -c full_page_writes=off -c max_connections=300",
            self.port,
            self.dir.display()
        );
        self.pg("pg_ctl")
            .args(["-D", &self.data(), "-l", &self.log(), "-w", "-t", "60", "-o", &options, "start"])
            .status_ok("pg_ctl start");
    }

    fn data(&self) -> String {
        self.dir.join("data").display().to_string()
    }

    fn log(&self) -> String {
        self.dir.join("server.log").display().to_string()
    }

    /// A command running the server binary `name` as the cluster's user.
    fn pg(&self, name: &str) -> Command {
        let program = self.bin.join(name);
        match self.run_as {
            Some(user) => {
                let mut command = Command::new("runuser");
                command.args(["-u", user, "--"]).arg(program);
                command
            }
            None => Command::new(program),
        }
    }

    /// Stops the server and removes its directory once this process is gone.
    fn watch_parent(&self) {
        let stop = format!("{:?}", self.pg("pg_ctl").args(["-D", &self.data(), "-m", "immediate", "stop"]));
        let script = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 0.5; done; {stop} >/dev/null 2>&1; rm -rf '{dir}'",
            pid = std::process::id(),
            stop = stop.replace('"', ""),
            dir = self.dir.display()
        );
        // Started in the background by a shell that exits at once, so the watchdog outlives
        // nothing it should not and leaves no zombie behind.
        let detached = format!("({script}) </dev/null >/dev/null 2>&1 &");
        let status = Command::new("sh").args(["-c", &detached]).status().unwrap();
        assert!(status.success(), "the cluster's watchdog did not start");
    }

    /// Stops a kept cluster's server once this process is gone, leaving its directory. The
    /// watchdog signals the postmaster it saw start (SIGINT: a fast shutdown) rather than
    /// running `pg_ctl` on the directory, so it never stops the server of a later run that
    /// already reuses the data.
    fn stop_with_parent(&self) {
        let pid_file = std::fs::read_to_string(Path::new(&self.data()).join("postmaster.pid")).unwrap();
        let postmaster: u32 = pid_file.lines().next().and_then(|pid| pid.trim().parse().ok()).unwrap();
        let script = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 0.5; done; kill -INT {postmaster}",
            pid = std::process::id()
        );
        let detached = format!("({script}) </dev/null >/dev/null 2>&1 &");
        let status = Command::new("sh").args(["-c", &detached]).status().unwrap();
        assert!(status.success(), "the cluster's watchdog did not start");
    }
}

trait StatusOk {
    fn status_ok(&mut self, what: &str);
}

impl StatusOk for Command {
    fn status_ok(&mut self, what: &str) {
        let out = self.output().unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(
            out.status.success(),
            "{what} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn run(command: &mut Command, what: &str) {
    command.status_ok(what);
}

/// The newest installed server's binaries.
fn server_bin() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let version = path.file_name()?.to_str()?.parse().ok()?;
            Some((version, path.join("bin")))
        })
        .filter(|(_, bin)| Path::new(&bin.join("postgres")).exists())
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}
