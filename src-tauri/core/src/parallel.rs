//! Per-item work spread over the machine's cores, in input order. Skill folders are independent
//! and their cost is mostly file-system calls, so the level-1 listing, the start-up scan and
//! `skillcase validate` all take folders one at a time from a shared counter: a few large skills
//! never leave a core idle, and no thread-pool crate is needed for this one shape.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Applies `work` to every item on up to one thread per core (the calling thread is one of them,
/// so a single core costs no thread), keeping the input order, and calls `progress(done)` as
/// items finish.
pub fn map<T: Sync, R: Send>(
    items: &[T],
    work: impl Fn(&T) -> R + Sync,
    progress: impl Fn(usize) + Sync,
) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 8).min(items.len());
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let take = || {
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else { return mine };
            mine.push((i, work(item)));
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
        }
    };
    let mut all: Vec<(usize, R)> = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(take)).collect();
        let mut all = take();
        for helper in helpers {
            all.extend(helper.join().expect("a parallel worker panicked"));
        }
        all
    });
    all.sort_unstable_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_input_order() {
        let items: Vec<u32> = (0..500).collect();
        let doubled = map(&items, |n| n * 2, |_| {});
        assert_eq!(doubled, items.iter().map(|n| n * 2).collect::<Vec<_>>());
    }

    #[test]
    fn no_items_and_one_item_need_no_thread() {
        assert_eq!(map(&[] as &[u32], |n| n + 1, |_| {}), Vec::<u32>::new());
        assert_eq!(map(&[41], |n| n + 1, |_| {}), [42]);
    }

    #[test]
    fn progress_reaches_the_item_count() {
        let items: Vec<u32> = (0..300).collect();
        let highest = AtomicUsize::new(0);
        map(
            &items,
            |n| n + 1,
            |done| {
                highest.fetch_max(done, Ordering::Relaxed);
            },
        );
        assert_eq!(highest.into_inner(), 300);
    }
}
