//! What one connection is doing and by when it must have done it.
//!
//! hyper's own `header_read_timeout` starts whenever a connection waits for a request head,
//! between keep-alive requests too, so it cannot tell a client that is slowly sending a head
//! (cut after the header-read timeout) from one that is resting between requests (allowed the
//! longer idle timeout). The clock tells them apart with three phases:
//!
//! - **head**: from the accept, or from the first byte after a rest, until a request head has
//!   been read — the header-read timeout runs;
//! - **busy**: a request is being answered — the request's own timeouts (body read, handler)
//!   bound it, and a backstop above them guards against a bug in those;
//! - **idle**: the answer is out (or being written) and the next request has not begun — the idle
//!   timeout runs, which also closes a connection whose client never reads its answer.
//!
//! The connection task wakes at [`Clock::next_check`] and closes the connection once
//! [`Clock::deadline`] has passed. Phases only ever change to a deadline later than the next
//! check (see there), so they are recorded with two relaxed stores and never wake the task: a
//! busy keep-alive connection costs no timer work per request.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::time::Duration;

use tokio::time::Instant;

const HEAD: u8 = 0;
const BUSY: u8 = 1;
const IDLE: u8 = 2;

/// How long each phase may last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhaseLimits {
    pub header_read: Duration,
    pub busy: Duration,
    pub idle: Duration,
}

/// The phase of one connection and when it began. Shared by the connection's I/O (which sees
/// bytes arrive) and its service (which sees requests start and answers leave); both run in the
/// connection's one task, so relaxed atomics are enough.
#[derive(Debug)]
pub struct Clock {
    origin: Instant,
    phase: AtomicU8,
    /// When the phase began, in microseconds after `origin`.
    since: AtomicU64,
    limits: PhaseLimits,
}

impl Clock {
    /// A clock for a connection accepted now: its first request head is awaited.
    pub fn new(limits: PhaseLimits) -> Clock {
        Clock { origin: Instant::now(), phase: AtomicU8::new(HEAD), since: AtomicU64::new(0), limits }
    }

    /// A request head was read: the request's own timeouts govern it now.
    pub fn request_started(&self) {
        self.enter(BUSY);
    }

    /// The answer is ready: the connection rests until the client's next byte.
    pub fn answer_ready(&self) {
        self.enter(IDLE);
    }

    /// Bytes arrived from the client; after a rest they begin the next request head.
    pub fn bytes_arrived(&self) {
        if self.phase.load(Ordering::Relaxed) == IDLE {
            self.enter(HEAD);
        }
    }

    /// When the current phase runs out.
    pub fn deadline(&self) -> Instant {
        let since = self.origin + Duration::from_micros(self.since.load(Ordering::Relaxed));
        since
            + match self.phase.load(Ordering::Relaxed) {
                HEAD => self.limits.header_read,
                BUSY => self.limits.busy,
                _ => self.limits.idle,
            }
    }

    /// When to look at the deadline again: at it, or sooner, after the shorter of the
    /// header-read and idle timeouts. Any phase begun after now ends no sooner than that: a head
    /// begun at `t` ends at `t + header_read`, a rest at `t + idle`, a request at `t + busy`
    /// (busy is longer than header-read), so a check is never late.
    pub fn next_check(&self) -> Instant {
        let step = self.limits.header_read.min(self.limits.idle);
        self.deadline().min(Instant::now() + step)
    }

    fn enter(&self, phase: u8) {
        let micros = u64::try_from(self.origin.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.since.store(micros, Ordering::Relaxed);
        self.phase.store(phase, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: PhaseLimits = PhaseLimits {
        header_read: Duration::from_secs(10),
        busy: Duration::from_secs(30),
        idle: Duration::from_secs(60),
    };

    fn after(clock: &Clock, start: Instant) -> Duration {
        clock.deadline() - start
    }

    #[tokio::test(start_paused = true)]
    async fn a_new_connection_must_send_its_head_within_the_header_read_timeout() {
        let start = Instant::now();
        let clock = Clock::new(LIMITS);
        assert_eq!(after(&clock, start), Duration::from_secs(10));
    }

    #[tokio::test(start_paused = true)]
    async fn bytes_of_a_head_in_progress_do_not_extend_it() {
        let start = Instant::now();
        let clock = Clock::new(LIMITS);
        tokio::time::advance(Duration::from_secs(4)).await;
        clock.bytes_arrived();
        assert_eq!(after(&clock, start), Duration::from_secs(10));
    }

    #[tokio::test(start_paused = true)]
    async fn an_answered_connection_may_rest_for_the_idle_timeout() {
        let start = Instant::now();
        let clock = Clock::new(LIMITS);
        clock.request_started();
        tokio::time::advance(Duration::from_secs(1)).await;
        clock.answer_ready();
        assert_eq!(after(&clock, start), Duration::from_secs(61));
    }

    #[tokio::test(start_paused = true)]
    async fn the_first_byte_after_a_rest_starts_the_header_read_timeout_again() {
        let start = Instant::now();
        let clock = Clock::new(LIMITS);
        clock.request_started();
        clock.answer_ready();
        tokio::time::advance(Duration::from_secs(20)).await;
        clock.bytes_arrived();
        assert_eq!(after(&clock, start), Duration::from_secs(30));
    }

    #[tokio::test(start_paused = true)]
    async fn a_resting_connection_is_looked_at_again_before_a_new_head_could_run_out() {
        let start = Instant::now();
        let clock = Clock::new(LIMITS);
        clock.request_started();
        clock.answer_ready();
        assert_eq!(clock.next_check() - start, Duration::from_secs(10));
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_being_answered_has_the_busy_backstop() {
        let start = Instant::now();
        let clock = Clock::new(LIMITS);
        tokio::time::advance(Duration::from_secs(2)).await;
        clock.request_started();
        clock.bytes_arrived();
        assert_eq!(after(&clock, start), Duration::from_secs(32));
    }
}
