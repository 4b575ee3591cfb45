//! The desktop started with `SKILLCASE_DATA_DIR` still names that directory in the stdio command
//! it shows: the agent's host starts `skillcase mcp` with its own environment, not the window's.
//! (Its own test binary: the one test here sets a variable of the process.)

use skillcase_application::paths::DATA_DIR_ENV;
use skillcase_application::AppOptions;
use skillcase_host::Host;

#[tokio::test]
async fn a_data_directory_given_by_skillcase_data_dir_is_named_in_the_stdio_command() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("skills")).unwrap();
    std::env::set_var(DATA_DIR_ENV, dir.path());
    let options = AppOptions {
        skills_dir: Some(dir.path().join("skills")),
        catalog_dir: None,
        ..AppOptions::new(skillcase_application::paths::data_dir().unwrap())
    };
    let host = Host::start(options, Some(0)).await.unwrap();
    let setup = host.mcp_setup().await;
    assert_eq!(setup.env.get(DATA_DIR_ENV).map(String::as_str), Some(dir.path().to_str().unwrap()));
    host.stop().await;
}
