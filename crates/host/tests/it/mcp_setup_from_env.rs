//! The desktop started with `SKILLCASE_DATA_DIR` still names that directory in the stdio command
//! it shows: the agent's host starts `skillcase mcp` with its own environment, not the window's.
//! (The test runs in a process of its own, started with that variable, as the desktop would be.)

use skillcase_application::paths::DATA_DIR_ENV;
use skillcase_application::AppOptions;
use skillcase_host::Host;
use skillcase_testkit::own_process::in_own_process;

#[test]
fn a_data_directory_given_by_skillcase_data_dir_is_named_in_the_stdio_command() {
    in_own_process(
        "mcp_setup_from_env::a_data_directory_given_by_skillcase_data_dir_is_named_in_the_stdio_command",
        |process| {
            let dir = tempfile::tempdir().unwrap();
            process.env(DATA_DIR_ENV, dir.path());
            dir
        },
        || tokio::runtime::Runtime::new().unwrap().block_on(named_in_the_stdio_command()),
    );
}

async fn named_in_the_stdio_command() {
    let dir = std::path::PathBuf::from(std::env::var_os(DATA_DIR_ENV).unwrap());
    std::fs::create_dir(dir.join("skills")).unwrap();
    let options = AppOptions {
        skills_dir: Some(dir.join("skills")),
        catalog_dir: None,
        ..AppOptions::new(skillcase_application::paths::data_dir().unwrap())
    };
    let host = Host::start(options, Some(0)).await.unwrap();
    let setup = host.mcp_setup().await;
    assert_eq!(setup.env.get(DATA_DIR_ENV).map(String::as_str), Some(dir.to_str().unwrap()));
    host.stop().await;
}
