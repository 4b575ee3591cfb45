//! Background work at background priority. On a machine with few cores the start-up scan's second
//! phase and the watcher's walk of every folder compete with the window's own start (its web
//! process lays out and runs the page at the same moment); at a lower priority they take what the
//! window leaves, and still all of an idle core.

/// The nice value background threads run at: the kernel then gives a thread at the default
/// priority about ten times their share of a contended core.
pub const BACKGROUND_NICE: i32 = 10;

/// Lowers the calling thread, and every thread it starts from now on, to [`BACKGROUND_NICE`] (a
/// thread already lower stays as it is); a no-op where the nice value is not per thread. Never
/// raised back: a thread lowered is a thread whose whole remaining work is background work.
pub(crate) fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid, getpriority and setpriority take no pointers; on Linux the nice value
    // belongs to the thread named, and threads it creates inherit it.
    unsafe {
        let tid = libc::gettid() as libc::id_t;
        *libc::__errno_location() = 0;
        let now = libc::getpriority(libc::PRIO_PROCESS, tid);
        if *libc::__errno_location() != 0 || now >= BACKGROUND_NICE {
            return;
        }
        if libc::setpriority(libc::PRIO_PROCESS, tid, BACKGROUND_NICE) != 0 {
            eprintln!(
                "skillcase: cannot lower the background work's priority: {}",
                std::io::Error::last_os_error()
            );
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn nice_of_this_thread() -> i32 {
        // SAFETY: as above; getpriority may return -1 legitimately, so errno is cleared first.
        unsafe {
            *libc::__errno_location() = 0;
            libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t)
        }
    }

    #[test]
    fn a_lowered_thread_and_the_threads_it_starts_run_at_background_priority_and_others_do_not() {
        let before = nice_of_this_thread();
        let (lowered, child) = std::thread::spawn(|| {
            lower_this_thread();
            let child = std::thread::spawn(nice_of_this_thread).join().unwrap();
            (nice_of_this_thread(), child)
        })
        .join()
        .unwrap();
        let background = before.max(BACKGROUND_NICE);
        assert_eq!((lowered, child), (background, background));
        assert_eq!(nice_of_this_thread(), before);
    }
}
