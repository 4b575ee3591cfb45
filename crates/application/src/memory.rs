//! Hands the memory a burst of work freed back to the system. glibc keeps what each thread freed
//! in that thread's malloc arena for reuse, so after the start-up scan of a large library the
//! process would hold its garbage all day: with 10,000 skills, 92 MB of private memory in the
//! app process, 60 MB once the arenas are trimmed (docs/performance.md, the desktop).

/// Returns the free pages of every malloc arena to the system (glibc's `malloc_trim`); a no-op
/// where the C library is another.
pub(crate) fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointers; it walks glibc's own arenas under their locks.
    unsafe {
        libc::malloc_trim(0);
    }
}
