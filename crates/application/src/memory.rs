//! How the process holds its memory. glibc keeps what each thread freed in that thread's malloc
//! arena for reuse, so after the start-up scan of a large library the process would hold its
//! garbage all day: with 10,000 skills, 92 MB of private memory in the app process, 60 MB once
//! the arenas are trimmed by [`release_freed`] (docs/performance.md, the desktop).

/// Returns the free pages of every malloc arena to the system (glibc's `malloc_trim`); a no-op
/// where the C library is another.
pub(crate) fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointers; it walks glibc's own arenas under their locks.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// How many malloc arenas a long-running process keeps at most. glibc makes up to eight per core,
/// one for each thread that allocates while the others are busy, and a freed block stays in its
/// arena: the tokio workers and blocking threads of a desktop left open all day spread its memory
/// over many arenas. Two left the window's process 3-5 MB less private memory with 10,000 skills
/// and 100,000 cases (57-61 MB against 62-64 over four starts each).
pub const MALLOC_ARENAS: i32 = 2;

/// Caps glibc's malloc arenas at [`MALLOC_ARENAS`]; called first thing by a long-running front
/// end (the window), before it starts its threads. A no-op where the C library is another.
pub fn limit_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt takes two integers and only sets glibc's tunable.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, MALLOC_ARENAS);
    }
}
