//! Per-item work spread over the machine's cores, in input order. Skill folders are independent
//! and their cost is mostly file-system calls, so the level-1 listing, the start-up scan and
//! `skillcase validate` all take folders one at a time from a shared counter: a few large skills
//! never leave a core idle, and no thread-pool crate is needed for this one shape.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Items a thread claims at once: many claims per thread, so a few large skills never leave a
/// core idle, yet few enough that the shared counters are not bounced between cores per item.
fn claim_len(items: usize, threads: usize) -> usize {
    (items / (threads * 32)).clamp(1, 64)
}

/// Applies `work` to every item on up to one thread per core (the calling thread is one of them,
/// so a single core costs no thread), keeping the input order, and calls `progress(done)` as
/// items finish. Results stay in their claim's vector until the claims are put back in order,
/// so keeping the order sorts a few claims, not every (often large) result.
pub fn map<T: Sync, R: Send>(
    items: &[T],
    work: impl Fn(&T) -> R + Sync,
    progress: impl Fn(usize) + Sync,
) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 8).min(items.len());
    let claim = claim_len(items.len(), threads.max(1));
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let take = || {
        let mut claims = Vec::new();
        loop {
            let start = next.fetch_add(claim, Ordering::Relaxed);
            let Some(mine) = items.get(start..(start + claim).min(items.len())) else { return claims };
            claims.push((start, mine.iter().map(&work).collect::<Vec<R>>()));
            progress(done.fetch_add(mine.len(), Ordering::Relaxed) + mine.len());
        }
    };
    let mut claims = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(take)).collect();
        let mut claims = take();
        for helper in helpers {
            claims.extend(helper.join().expect("a parallel worker panicked"));
        }
        claims
    });
    claims.sort_unstable_by_key(|(start, _)| *start);
    let mut out = Vec::with_capacity(items.len());
    for (_, results) in claims {
        out.extend(results);
    }
    out
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

    #[test]
    fn claims_that_do_not_divide_the_items_still_cover_each_once_in_order() {
        let items: Vec<u32> = (0..10_007).collect();
        let calls = AtomicUsize::new(0);
        let out = map(
            &items,
            |n| {
                calls.fetch_add(1, Ordering::Relaxed);
                n + 1
            },
            |_| {},
        );
        assert_eq!(calls.into_inner(), 10_007);
        assert_eq!(out, (1..10_008).collect::<Vec<_>>());
    }

    #[test]
    fn claims_are_small_enough_to_share_and_never_empty() {
        assert_eq!(claim_len(1, 2), 1);
        assert_eq!(claim_len(142, 2), 2);
        assert_eq!(claim_len(10_000, 2), 64);
    }
}
