//! The per-skill quiet window that turns a stream of file events into one event per skill.
//!
//! A skill is due once nothing under it has changed for `quiet` and no file in it is still open
//! for writing, so an editor's save, an unzip or a `git checkout` ends in one re-scan of each
//! skill it touched. A skill that never goes quiet (a tool appending to a file in it) is still
//! reported `max_wait` after its first change, so a storm delays an event but never starves it;
//! that is the one case where a single burst gives a skill a second event.
//!
//! Why not `notify-debouncer-full`: it settles each *file* on its own and emits on a 1/4-timeout
//! tick, so two files of one skill finishing in different ticks still make two events and a
//! per-skill window would have to be stacked on top (its 250–312 ms plus ours). Settling per
//! skill here needs one window, and it keeps inotify's close-after-write, which that crate drops.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What [`Settle::take_due`] hands over.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Due {
    /// Events were lost or too many skills changed: the consumer should re-scan everything.
    Rescan,
    /// These skills have been quiet long enough (possibly none).
    Skills(Vec<String>),
}

/// Changes seen for one skill and not yet reported.
#[derive(Debug)]
struct Pending {
    first: Instant,
    last: Instant,
    /// Files written to and not yet closed (inotify only reports closes; elsewhere this stays empty).
    writing: HashSet<PathBuf>,
}

/// Skills with unreported changes, and whether a full re-scan is owed.
#[derive(Debug)]
pub(crate) struct Settle {
    quiet: Duration,
    max_wait: Duration,
    skills: HashMap<String, Pending>,
    rescan: Option<Pending>,
}

impl Settle {
    pub(crate) fn new(quiet: Duration, max_wait: Duration) -> Self {
        Settle { quiet, max_wait, skills: HashMap::new(), rescan: None }
    }

    /// Records a change to `skill` at `now` (folded into an owed re-scan, if one is owed).
    pub(crate) fn touch(&mut self, skill: &str, now: Instant) {
        self.entry(skill, now).last = now;
    }

    /// Records that `file` in `skill` was written and is still open: the skill waits for its close.
    pub(crate) fn writing(&mut self, skill: &str, file: &Path, now: Instant) {
        let pending = self.entry(skill, now);
        pending.last = now;
        pending.writing.insert(file.to_path_buf());
    }

    /// Records that `file` was closed after writing (or is gone); true if it was being written.
    pub(crate) fn closed(&mut self, skill: &str, file: &Path, now: Instant) -> bool {
        let pending = match self.rescan.as_mut() {
            Some(rescan) => Some(rescan),
            None => self.skills.get_mut(skill),
        };
        let Some(pending) = pending else { return false };
        let was_writing = pending.writing.remove(file);
        if was_writing {
            pending.last = now;
        }
        was_writing
    }

    /// Owes the consumer a full re-scan (events were lost or too many skills changed at once); it
    /// replaces the per-skill events still pending and is reported when everything is quiet.
    pub(crate) fn owe_rescan(&mut self, now: Instant) {
        self.skills.clear();
        let rescan = self.rescan.get_or_insert_with(|| Pending::at(now));
        rescan.last = now;
    }

    /// How many skills have unreported changes.
    pub(crate) fn len(&self) -> usize {
        self.skills.len()
    }

    /// Forgets everything pending (the directory went away; the consumer re-scans when it returns).
    pub(crate) fn clear(&mut self) {
        self.skills.clear();
        self.rescan = None;
    }

    /// Takes what is due at `now`: an owed re-scan, or the skills due, sorted by name.
    pub(crate) fn take_due(&mut self, now: Instant) -> Due {
        if let Some(rescan) = &self.rescan {
            if self.is_due(rescan, now) {
                self.rescan = None;
                return Due::Rescan;
            }
            return Due::Skills(Vec::new());
        }
        let mut due: Vec<String> =
            self.skills.iter().filter(|(_, p)| self.is_due(p, now)).map(|(name, _)| name.clone()).collect();
        due.sort();
        for name in &due {
            self.skills.remove(name);
        }
        Due::Skills(due)
    }

    /// When the next skill (or the owed re-scan) could become due, if anything is pending.
    pub(crate) fn next_due(&self) -> Option<Instant> {
        self.rescan.iter().chain(self.skills.values()).map(|p| self.due_at(p)).min()
    }

    fn entry(&mut self, skill: &str, now: Instant) -> &mut Pending {
        match self.rescan {
            Some(ref mut rescan) => rescan,
            None => self.skills.entry(skill.to_string()).or_insert_with(|| Pending::at(now)),
        }
    }

    fn is_due(&self, pending: &Pending, now: Instant) -> bool {
        now >= self.due_at(pending)
    }

    fn due_at(&self, pending: &Pending) -> Instant {
        let forced = pending.first + self.max_wait;
        if pending.writing.is_empty() {
            (pending.last + self.quiet).min(forced)
        } else {
            forced
        }
    }
}

impl Pending {
    fn at(now: Instant) -> Self {
        Pending { first: now, last: now, writing: HashSet::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    fn skills(names: &[&str]) -> Due {
        Due::Skills(names.iter().map(|n| n.to_string()).collect())
    }

    fn settle() -> Settle {
        Settle::new(250 * MS, 3000 * MS)
    }

    #[test]
    fn a_skill_is_due_once_it_has_been_quiet_for_the_window() {
        let t0 = Instant::now();
        let mut s = settle();
        s.touch("frete", t0);
        s.touch("frete", t0 + 200 * MS);
        assert_eq!(s.take_due(t0 + 300 * MS), skills(&[]));
        assert_eq!(s.next_due(), Some(t0 + 450 * MS));
        assert_eq!(s.take_due(t0 + 450 * MS), skills(&["frete"]));
        assert_eq!(s.next_due(), None);
    }

    #[test]
    fn many_changes_to_many_skills_give_each_skill_once() {
        let t0 = Instant::now();
        let mut s = settle();
        for i in 0..50u32 {
            s.touch(&format!("skill-{}", i % 5), t0 + i * MS);
        }
        let due = s.take_due(t0 + 400 * MS);
        assert_eq!(due, skills(&["skill-0", "skill-1", "skill-2", "skill-3", "skill-4"]));
        assert_eq!(s.take_due(t0 + 800 * MS), skills(&[]));
    }

    #[test]
    fn a_file_still_open_for_writing_holds_its_skill_until_it_is_closed() {
        let t0 = Instant::now();
        let mut s = settle();
        let file = Path::new("/skills/frete/assets/big.pdf");
        s.writing("frete", file, t0);
        assert_eq!(s.take_due(t0 + 1000 * MS), skills(&[]));
        assert!(s.closed("frete", file, t0 + 1000 * MS));
        assert_eq!(s.take_due(t0 + 1250 * MS), skills(&["frete"]));
    }

    #[test]
    fn a_skill_that_never_goes_quiet_is_reported_after_the_longest_wait() {
        let t0 = Instant::now();
        let mut s = settle();
        for i in 0..40u32 {
            s.touch("log", t0 + i * 100 * MS);
        }
        assert_eq!(s.take_due(t0 + 3000 * MS), skills(&["log"]));
    }

    #[test]
    fn an_owed_rescan_replaces_pending_skills_and_waits_for_quiet() {
        let t0 = Instant::now();
        let mut s = settle();
        s.touch("frete", t0);
        s.owe_rescan(t0 + 10 * MS);
        assert_eq!(s.len(), 0);
        s.touch("other", t0 + 20 * MS);
        assert_eq!(s.len(), 0);
        assert_eq!(s.take_due(t0 + 100 * MS), skills(&[]));
        assert_eq!(s.take_due(t0 + 270 * MS), Due::Rescan);
        assert_eq!(s.next_due(), None);
    }
}
