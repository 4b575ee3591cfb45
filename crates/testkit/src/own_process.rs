//! One test in a process of its own, for the few tests whose subject is the whole process: its
//! environment, its working folder, its peak memory. Every other test of a crate shares one test
//! binary, so such a test runs its scenario in a new process of that binary that runs it alone,
//! started with the environment or the folder it needs, instead of changing this process's.

use std::ffi::OsString;
use std::process::Command;

/// Set, in the process [`in_own_process`] starts, to the name of the test it runs there.
const OWN_PROCESS_ENV: &str = "SKILLCASE_TEST_OWN_PROCESS";

/// Runs `scenario` alone in a new process of this test binary: the test `test` (its full name as
/// the harness lists it, `module::name`) runs again there, by itself, and fails here if it fails
/// there. `configure` prepares that process (its environment, its working folder) and returns what
/// must outlive it, such as the temporary folder it starts in. In that process, `scenario` runs.
pub fn in_own_process<Keep>(
    test: &str,
    configure: impl FnOnce(&mut Command) -> Keep,
    scenario: impl FnOnce(),
) {
    if std::env::var_os(OWN_PROCESS_ENV) == Some(OsString::from(test)) {
        scenario();
        return;
    }
    let mut command = Command::new(std::env::current_exe().unwrap());
    command.args([test, "--exact", "--nocapture", "--test-threads=1"]).env(OWN_PROCESS_ENV, test);
    let kept = configure(&mut command);
    let output = command.output().expect("this test binary starts again");
    drop(kept);
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "`{test}` failed in its own process:\n{stdout}\n{stderr}");
    assert!(stdout.contains("1 passed"), "`{test}` did not run in its own process:\n{stdout}\n{stderr}");
}
