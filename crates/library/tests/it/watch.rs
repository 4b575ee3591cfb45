//! The watched skills directory (SPEC A9) on real temporary folders with real file operations:
//! what a person, an editor, an unzip or a `git checkout` does there becomes one small event per
//! skill. Deadlines are generous (the machine is shared): these test behaviour, not speed; the
//! bench measures latency.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use skillcase_common::error::{Coded, ErrorBody};
use skillcase_library::watch::{skill_names, SkillsWatcher, WatchEvent, WatchOptions};
use skillcase_testkit::zips::zip_of;
use tempfile::TempDir;

/// How long an expected event may take.
const DEADLINE: Duration = Duration::from_secs(5);
/// How long "nothing more happens" is watched for.
const QUIET: Duration = Duration::from_secs(1);

struct Watched {
    dir: TempDir,
    batches: mpsc::Receiver<Vec<WatchEvent>>,
    watcher: Option<SkillsWatcher>,
}

/// A skills directory holding `skills` (each a folder with a `SKILL.md`), watched from now on.
fn watched(skills: &[&str]) -> Watched {
    watched_with(skills, options())
}

fn options() -> WatchOptions {
    WatchOptions { poll: Duration::from_millis(200), ..WatchOptions::default() }
}

fn watched_with(skills: &[&str], options: WatchOptions) -> Watched {
    let dir = tempfile::tempdir().unwrap();
    for name in skills {
        write_skill(dir.path(), name);
    }
    watch(dir, options)
}

/// Starts watching a directory the test has already filled.
fn watch(dir: TempDir, options: WatchOptions) -> Watched {
    let (tx, batches) = mpsc::channel();
    let watcher = SkillsWatcher::start(dir.path(), options, move |batch| {
        let _ = tx.send(batch);
    })
    .unwrap();
    Watched { dir, batches, watcher: Some(watcher) }
}

fn write_skill(root: &Path, name: &str) {
    fs::create_dir_all(root.join(name)).unwrap();
    fs::write(root.join(name).join("SKILL.md"), skill_md(name, "first")).unwrap();
}

fn skill_md(name: &str, edition: &str) -> String {
    format!("---\nname: {name}\ndescription: A skill used by the watcher tests ({edition}).\n---\n# {name}\n")
}

fn changed(name: &str) -> WatchEvent {
    WatchEvent::SkillChanged { name: name.to_string() }
}

fn removed(name: &str) -> WatchEvent {
    WatchEvent::SkillRemoved { name: name.to_string() }
}

impl Watched {
    fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    /// Every event until none has come for [`QUIET`] (or, failing that, for 60 s in all).
    fn until_quiet(&self) -> Vec<WatchEvent> {
        let mut events = Vec::new();
        let give_up = Instant::now() + Duration::from_secs(60);
        while let Ok(batch) = self.batches.recv_timeout(QUIET) {
            events.extend(batch);
            assert!(Instant::now() < give_up, "events never stopped: {events:?}");
        }
        events
    }

    /// Waits out whatever start-up noise there is, so a test sees only its own changes.
    fn settled(self) -> Self {
        let noise = self.until_quiet();
        assert_eq!(noise, [], "a freshly started watcher reports nothing");
        self
    }
}

fn sorted(mut events: Vec<WatchEvent>) -> Vec<WatchEvent> {
    events.sort_by_key(|e| format!("{e:?}"));
    events
}

#[test]
fn a_new_skill_folder_is_reported_changed_once() {
    let w = watched(&[]).settled();
    write_skill(w.dir.path(), "frete");
    fs::create_dir(w.path("frete/references")).unwrap();
    fs::write(w.path("frete/references/tabela.md"), "# Tabela\n").unwrap();
    assert_eq!(w.until_quiet(), [changed("frete")]);
}

#[test]
fn editing_skill_md_several_times_in_a_row_is_reported_once() {
    let w = watched(&["frete", "troca"]).settled();
    for edition in ["second", "third", "fourth"] {
        fs::write(w.path("frete/SKILL.md"), skill_md("frete", edition)).unwrap();
    }
    assert_eq!(w.until_quiet(), [changed("frete")]);
}

#[test]
fn an_editor_save_through_a_temp_file_and_rename_reports_the_skill() {
    let w = watched(&["frete"]).settled();
    fs::write(w.path("frete/.SKILL.md.swp"), "vim swap").unwrap();
    fs::write(w.path("frete/4913"), "").unwrap();
    fs::remove_file(w.path("frete/4913")).unwrap();
    fs::write(w.path("frete/SKILL.md.tmp"), skill_md("frete", "saved")).unwrap();
    fs::rename(w.path("frete/SKILL.md.tmp"), w.path("frete/SKILL.md")).unwrap();
    fs::remove_file(w.path("frete/.SKILL.md.swp")).unwrap();
    assert_eq!(w.until_quiet(), [changed("frete")]);
    assert_eq!(fs::read_to_string(w.path("frete/SKILL.md")).unwrap(), skill_md("frete", "saved"));
}

#[test]
fn editor_scratch_files_alone_report_nothing() {
    let w = watched(&["frete"]).settled();
    fs::write(w.path("frete/.SKILL.md.swp"), "vim swap").unwrap();
    fs::write(w.path("frete/SKILL.md~"), "backup").unwrap();
    fs::write(w.path("frete/.#SKILL.md"), "emacs lock").unwrap();
    fs::remove_file(w.path("frete/.SKILL.md.swp")).unwrap();
    assert_eq!(w.until_quiet(), []);
}

#[test]
fn renaming_a_skill_folder_reports_the_old_name_removed_and_the_new_one_changed() {
    let w = watched(&["frete"]).settled();
    fs::rename(w.path("frete"), w.path("frete-expresso")).unwrap();
    assert_eq!(sorted(w.until_quiet()), [changed("frete-expresso"), removed("frete")]);
    fs::write(w.path("frete-expresso/SKILL.md"), skill_md("frete-expresso", "renamed")).unwrap();
    assert_eq!(w.until_quiet(), [changed("frete-expresso")], "the renamed folder is still watched");
}

#[test]
fn deleting_a_skill_folder_reports_it_removed() {
    let w = watched(&["frete", "troca"]).settled();
    fs::remove_dir_all(w.path("frete")).unwrap();
    assert_eq!(w.until_quiet(), [removed("frete")]);
}

#[test]
fn deleting_only_skill_md_reports_the_skill_removed_and_restoring_it_reports_it_changed() {
    let w = watched(&["frete"]).settled();
    fs::remove_file(w.path("frete/SKILL.md")).unwrap();
    assert_eq!(w.until_quiet(), [removed("frete")]);
    fs::write(w.path("frete/SKILL.md"), skill_md("frete", "restored")).unwrap();
    assert_eq!(w.until_quiet(), [changed("frete")]);
}

#[test]
fn a_folder_without_skill_md_is_not_reported_until_one_appears() {
    let w = watched(&[]).settled();
    fs::create_dir_all(w.path("rascunho/references")).unwrap();
    fs::write(w.path("rascunho/references/notas.md"), "ideias").unwrap();
    fs::write(w.path("LEIA-ME.md"), "a loose file next to the skills").unwrap();
    assert_eq!(w.until_quiet(), []);
    fs::write(w.path("rascunho/SKILL.md"), skill_md("rascunho", "now a skill")).unwrap();
    assert_eq!(w.until_quiet(), [changed("rascunho")]);
}

#[test]
fn a_subfolder_created_after_start_is_watched_too() {
    let w = watched(&["frete"]).settled();
    fs::create_dir_all(w.path("frete/references/regioes")).unwrap();
    assert_eq!(w.until_quiet(), [changed("frete")]);
    fs::write(w.path("frete/references/regioes/norte.md"), "# Norte\n").unwrap();
    assert_eq!(w.until_quiet(), [changed("frete")]);
}

#[test]
fn a_skill_moved_in_from_elsewhere_is_reported_and_then_watched() {
    let w = watched(&[]).settled();
    let outside = tempfile::tempdir_in(w.dir.path().parent().unwrap()).unwrap();
    write_skill(outside.path(), "troca");
    fs::create_dir(outside.path().join("troca/references")).unwrap();
    fs::rename(outside.path().join("troca"), w.path("troca")).unwrap();
    assert_eq!(w.until_quiet(), [changed("troca")]);
    fs::write(w.path("troca/references/prazo.md"), "30 dias").unwrap();
    assert_eq!(w.until_quiet(), [changed("troca")]);
}

#[test]
fn changes_inside_git_and_node_modules_and_hidden_folders_are_ignored() {
    let w = watched(&["frete"]).settled();
    fs::create_dir_all(w.path(".git/objects/ab")).unwrap();
    fs::write(w.path(".git/objects/ab/cdef"), "blob").unwrap();
    fs::create_dir_all(w.path("frete/.git")).unwrap();
    fs::write(w.path("frete/.git/HEAD"), "ref: refs/heads/main").unwrap();
    fs::create_dir_all(w.path("frete/node_modules/left-pad")).unwrap();
    fs::write(w.path("frete/node_modules/left-pad/index.js"), "module.exports = 1").unwrap();
    fs::create_dir_all(w.path(".drafts/novo")).unwrap();
    fs::write(w.path(".drafts/novo/SKILL.md"), skill_md("novo", "hidden")).unwrap();
    assert_eq!(w.until_quiet(), []);
}

#[test]
fn folders_deeper_than_the_limit_are_not_watched() {
    let options = WatchOptions { max_depth: 3, ..options() };
    let w = watched_with(&["frete"], options).settled();
    fs::create_dir_all(w.path("frete/a/b/c/d")).unwrap();
    assert_eq!(w.until_quiet(), [changed("frete")], "creating folders within the limit is a change");
    fs::write(w.path("frete/a/b/c/d/deep.md"), "too deep").unwrap();
    fs::write(w.path("frete/a/b/c/deep.md"), "too deep").unwrap();
    assert_eq!(w.until_quiet(), []);
    fs::write(w.path("frete/a/b/shallow.md"), "within the limit").unwrap();
    assert_eq!(w.until_quiet(), [changed("frete")]);
}

#[test]
fn an_unzip_of_200_skills_reports_each_skill_exactly_once() {
    let w = watched(&[]).settled();
    let names: Vec<String> = (0..200).map(|i| format!("skill-{i:03}")).collect();
    let files: Vec<(String, Vec<u8>)> = names
        .iter()
        .flat_map(|name| {
            [
                (format!("{name}/SKILL.md"), skill_md(name, "zipped").into_bytes()),
                (format!("{name}/references/guia.md"), format!("# Guia de {name}\n").into_bytes()),
                (format!("{name}/assets/logo.bin"), vec![7u8; 4096]),
            ]
        })
        .collect();
    let entries: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    let zip = zip_of(&entries);
    zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap().extract(w.dir.path()).unwrap();

    let events = sorted(w.until_quiet());
    let expected: Vec<WatchEvent> = names.iter().map(|n| changed(n)).collect();
    assert_eq!(events.len(), 200, "one event per skill, no duplicates");
    assert_eq!(events, expected);
}

#[test]
fn a_checkout_of_500_files_over_20_skills_reports_each_skill_once() {
    let names: Vec<String> = (0..20).map(|i| format!("skill-{i:02}")).collect();
    let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let w = watched(&name_refs).settled();
    for name in &names {
        fs::create_dir(w.path(&format!("{name}/references"))).unwrap();
    }
    assert_eq!(w.until_quiet().len(), 20);
    for file in 0..25 {
        for name in &names {
            let path = w.path(&format!("{name}/references/part-{file:02}.md"));
            fs::write(path, format!("# Part {file} of {name}\n")).unwrap();
        }
    }
    let events = sorted(w.until_quiet());
    let expected: Vec<WatchEvent> = names.iter().map(|n| changed(n)).collect();
    assert_eq!(events, expected);
}

/// Runs git in `dir`, quietly, as a fixed test identity.
fn git(dir: &Path, args: &[&str]) {
    let status = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=Watcher Test",
            "-c",
            "user.email=watch@example.com",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git is installed");
    assert!(status.success(), "git {args:?}");
}

#[test]
fn a_real_git_checkout_of_500_files_over_20_skills_reports_each_skill_once() {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..20).map(|i| format!("skill-{i:02}")).collect();
    let write_all = |edition: &str| {
        for name in &names {
            fs::create_dir_all(dir.path().join(name).join("references")).unwrap();
            fs::write(dir.path().join(name).join("SKILL.md"), skill_md(name, edition)).unwrap();
            for file in 0..24 {
                let path = dir.path().join(format!("{name}/references/part-{file:02}.md"));
                fs::write(path, format!("# Part {file} of {name}, {edition}\n")).unwrap();
            }
        }
    };
    git(dir.path(), &["init", "-q", "-b", "main"]);
    write_all("main");
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "main"]);
    git(dir.path(), &["checkout", "-q", "-b", "other"]);
    write_all("other");
    git(dir.path(), &["commit", "-q", "-a", "-m", "other: 500 files changed"]);
    git(dir.path(), &["checkout", "-q", "main"]);

    let w = watch(dir, options()).settled();
    git(w.dir.path(), &["checkout", "-q", "other"]);
    let expected: Vec<WatchEvent> = names.iter().map(|n| changed(n)).collect();
    assert_eq!(sorted(w.until_quiet()), expected);
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_still_being_written_holds_its_skill_until_it_is_closed() {
    let w = watched(&["frete"]).settled();
    let mut file = fs::File::create(w.path("frete/references.md")).unwrap();
    file.write_all(b"# First half\n").unwrap();
    std::thread::sleep(Duration::from_millis(800));
    assert!(w.batches.try_recv().is_err(), "nothing is reported while the file is open");
    file.write_all(b"# Second half\n").unwrap();
    drop(file);
    assert_eq!(w.until_quiet(), [changed("frete")]);
}

#[test]
fn more_skills_at_once_than_a_batch_holds_become_one_rescan() {
    let options = WatchOptions { max_batch: 5, ..options() };
    let w = watched_with(&[], options).settled();
    for i in 0..10 {
        write_skill(w.dir.path(), &format!("skill-{i}"));
    }
    assert_eq!(w.until_quiet(), [WatchEvent::Rescan]);
    fs::write(w.path("skill-3/SKILL.md"), skill_md("skill-3", "after the rescan")).unwrap();
    assert_eq!(w.until_quiet(), [changed("skill-3")], "skills are reported one by one again");
}

#[test]
fn the_directory_removed_and_recreated_is_reported_unavailable_then_back() {
    let w = watched(&["frete"]).settled();
    fs::remove_dir_all(w.dir.path()).unwrap();
    let gone = w.until_quiet();
    assert!(matches!(&gone[..], [WatchEvent::DirUnavailable { .. }]), "{gone:?}");
    write_skill(w.dir.path(), "troca");
    let back = w.until_quiet();
    assert_eq!(back.first(), Some(&WatchEvent::DirBack), "{back:?}");
    // The watch can attach while `troca` is still being written; then its change follows.
    assert!(back[1..].iter().all(|e| *e == changed("troca")), "{back:?}");
    fs::write(w.path("troca/SKILL.md"), skill_md("troca", "watched again")).unwrap();
    assert_eq!(w.until_quiet(), [changed("troca")]);
}

#[test]
fn a_missing_directory_at_start_is_unavailable_until_it_is_created() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("skills");
    let (tx, batches) = mpsc::channel();
    let _watcher = SkillsWatcher::start(&dir, options(), move |batch| {
        let _ = tx.send(batch);
    })
    .unwrap();
    let first = batches.recv_timeout(DEADLINE).unwrap();
    assert!(
        matches!(&first[..], [WatchEvent::DirUnavailable { reason }] if reason.contains("skills")),
        "{first:?}"
    );
    write_skill(&dir, "frete");
    let back = batches.recv_timeout(DEADLINE).unwrap();
    assert_eq!(back.first(), Some(&WatchEvent::DirBack), "{back:?}");
    // The watch can attach while `frete` is still being written; then its change follows.
    assert!(back[1..].iter().all(|e| *e == changed("frete")), "{back:?}");
    assert_eq!(skill_names(&dir).unwrap(), ["frete"], "what the consumer re-scans on DirBack");
    fs::write(dir.join("frete/SKILL.md"), skill_md("frete", "watched now")).unwrap();
    assert_eq!(batches.recv_timeout(DEADLINE).unwrap(), [changed("frete")]);
}

#[test]
fn starting_on_a_file_is_refused_with_a_stable_code() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("skills");
    fs::write(&file, "not a folder").unwrap();
    let err = SkillsWatcher::start(&file, options(), |_| {}).unwrap_err();
    assert_eq!(err.code(), "skills_dir_not_a_directory");
    assert_eq!(ErrorBody::from(err).code, "skills_dir_not_a_directory");
}

#[test]
fn a_tree_larger_than_the_folder_limit_is_watched_up_to_it_and_the_rest_is_rescanned() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..5 {
        write_skill(dir.path(), &format!("skill-{i}"));
        fs::create_dir_all(dir.path().join(format!("skill-{i}/references"))).unwrap();
    }
    let options = WatchOptions { max_dirs: 6, rescan_unwatched: Duration::from_millis(300), ..options() };
    let w = watch(dir, options);
    let first = w.until_quiet();
    assert!(
        matches!(&first[..], [WatchEvent::Incomplete { reason }]
            if reason.contains("more than 6 folders") && reason.contains("rescan every 0.3 s")),
        "{first:?}"
    );
    for i in 0..5 {
        fs::write(w.path(&format!("skill-{i}/references/new.md")), "a new reference").unwrap();
    }
    let every: Vec<WatchEvent> = (0..5).map(|i| changed(&format!("skill-{i}"))).collect();
    assert_eq!(sorted(w.until_quiet()), every, "watched or rescanned, every skill is seen");
}

#[cfg(unix)]
#[test]
fn an_unreadable_folder_is_reported_and_everything_else_stays_watched() {
    use std::os::unix::fs::PermissionsExt;
    skillcase_testkit::hostile::as_unprivileged(
        "watch::an_unreadable_folder_is_reported_and_everything_else_stays_watched",
        || {
            let dir = tempfile::tempdir().unwrap();
            write_skill(dir.path(), "frete");
            write_skill(dir.path(), "troca");
            let private = dir.path().join("frete/private");
            fs::create_dir(&private).unwrap();
            fs::write(private.join("notes.md"), "internal").unwrap();
            fs::set_permissions(&private, fs::Permissions::from_mode(0o000)).unwrap();
            let options = WatchOptions { rescan_unwatched: Duration::from_millis(300), ..options() };
            let w = watch(dir, options);
            let first = w.until_quiet();
            assert!(
                matches!(&first[..], [WatchEvent::Incomplete { reason }]
                    if reason.contains("frete/private") && reason.contains("ermission denied")),
                "{first:?}"
            );
            write_skill(w.dir.path(), "novo");
            assert_eq!(w.until_quiet(), [changed("novo")], "a new skill elsewhere is seen");
            fs::write(w.path("troca/SKILL.md"), skill_md("troca", "second")).unwrap();
            assert_eq!(w.until_quiet(), [changed("troca")], "a sibling skill stays watched");
            fs::set_permissions(&private, fs::Permissions::from_mode(0o755)).unwrap();
            let back = sorted(w.until_quiet());
            assert_eq!(back, [WatchEvent::Complete, changed("frete")], "readable again, it is watched again");
        },
    );
}

#[test]
fn folders_beyond_the_limit_created_later_are_reported_incomplete_once() {
    let options = WatchOptions { max_dirs: 3, ..options() };
    let w = watched_with(&["frete"], options).settled();
    fs::create_dir_all(w.path("frete/a/b/c")).unwrap();
    let events = w.until_quiet();
    let incomplete: Vec<_> = events.iter().filter(|e| matches!(e, WatchEvent::Incomplete { .. })).collect();
    assert_eq!(incomplete.len(), 1, "{events:?}");
    assert!(events.contains(&changed("frete")), "{events:?}");
}

#[test]
fn stopping_the_watcher_joins_its_thread_and_reports_nothing_more() {
    let mut w = watched(&["frete"]).settled();
    drop(w.watcher.take());
    fs::write(w.path("frete/SKILL.md"), skill_md("frete", "after stop")).unwrap();
    assert!(matches!(w.batches.recv_timeout(QUIET), Err(mpsc::RecvTimeoutError::Disconnected)));
}

#[cfg(unix)]
#[test]
fn making_a_script_executable_is_a_change_but_other_permission_changes_are_not() {
    use std::os::unix::fs::PermissionsExt;
    let chmod =
        |path: PathBuf, mode: u32| fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    let w = watched(&["frete"]).settled();
    fs::create_dir(w.path("frete/scripts")).unwrap();
    fs::write(w.path("frete/scripts/calc.sh"), "#!/bin/sh\necho 10\n").unwrap();
    chmod(w.path("frete/scripts/calc.sh"), 0o644);
    assert_eq!(w.until_quiet(), [changed("frete")]);
    chmod(w.path("frete/scripts/calc.sh"), 0o600);
    chmod(w.path("frete/scripts"), 0o700);
    assert_eq!(w.until_quiet(), []);
    chmod(w.path("frete/scripts/calc.sh"), 0o755);
    assert_eq!(w.until_quiet(), [changed("frete")]);
}

#[test]
fn the_directory_moved_away_and_back_is_reported_unavailable_then_back() {
    let w = watched(&["frete"]).settled();
    let aside = w.dir.path().with_extension("aside");
    fs::rename(w.dir.path(), &aside).unwrap();
    let gone = w.until_quiet();
    assert!(matches!(&gone[..], [WatchEvent::DirUnavailable { .. }]), "{gone:?}");
    fs::write(aside.join("frete/SKILL.md"), skill_md("frete", "edited while away")).unwrap();
    assert_eq!(w.until_quiet(), [], "the folder moved away is no longer watched");
    fs::rename(&aside, w.dir.path()).unwrap();
    assert_eq!(w.until_quiet(), [WatchEvent::DirBack]);
    fs::write(w.path("frete/SKILL.md"), skill_md("frete", "back home")).unwrap();
    assert_eq!(w.until_quiet(), [changed("frete")]);
}

#[test]
fn a_consumer_that_panics_does_not_stop_the_watcher() {
    let dir = tempfile::tempdir().unwrap();
    write_skill(dir.path(), "frete");
    let (tx, batches) = mpsc::channel();
    let _watcher = SkillsWatcher::start(dir.path(), options(), move |batch| {
        if batch == [changed("frete")] {
            panic!("the consumer failed on its first batch");
        }
        let _ = tx.send(batch);
    })
    .unwrap();
    fs::write(dir.path().join("frete/SKILL.md"), skill_md("frete", "second")).unwrap();
    std::thread::sleep(QUIET);
    write_skill(dir.path(), "troca");
    assert_eq!(batches.recv_timeout(DEADLINE).unwrap(), [changed("troca")]);
}

#[test]
fn a_parent_folder_renamed_is_still_noticed_once_the_idle_checks_have_backed_off() {
    let parent = tempfile::tempdir().unwrap();
    let root = parent.path().join("skills");
    write_skill(&root, "frete");
    let (tx, batches) = mpsc::channel();
    let options =
        WatchOptions { poll: Duration::from_millis(50), poll_max: Duration::from_millis(400), ..options() };
    let _watcher = SkillsWatcher::start(&root, options, move |batch| {
        let _ = tx.send(batch);
    })
    .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    let moved = parent.path().with_extension("moved");
    fs::rename(parent.path(), &moved).unwrap();
    let gone = batches.recv_timeout(DEADLINE).expect("the check notices the folder is gone");
    assert!(matches!(&gone[..], [WatchEvent::DirUnavailable { .. }]), "{gone:?}");
    fs::rename(&moved, parent.path()).unwrap();
}
