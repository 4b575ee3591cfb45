//! Per-item work spread over the machine's cores, in input order. Skill folders are independent
//! and their cost is mostly file-system calls, so the level-1 listing, the start-up scan and
//! `skillcase validate` all take folders one at a time from a shared counter: a few large skills
//! never leave a core idle, and no thread-pool crate is needed for this one shape.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Applies `work` to every item on up to one thread per core, keeping the input order, and
/// calls `progress(done)` from the worker threads as items finish.
pub fn map<T: Sync, R: Send>(
    items: &[T],
    work: impl Fn(&T) -> R + Sync,
    progress: impl Fn(usize) + Sync,
) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 8);
    if items.len() < 64 || threads == 1 {
        return items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let r = work(item);
                progress(i + 1);
                r
            })
            .collect();
    }
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let mut slots: Vec<Option<R>> = (0..items.len()).map(|_| None).collect();
    let chunks: Vec<Vec<(usize, R)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= items.len() {
                            return out;
                        }
                        out.push((i, work(&items[i])));
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                    }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a parallel worker panicked")).collect()
    });
    for (i, r) in chunks.into_iter().flatten() {
        slots[i] = Some(r);
    }
    slots.into_iter().map(|r| r.expect("every item was processed")).collect()
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
