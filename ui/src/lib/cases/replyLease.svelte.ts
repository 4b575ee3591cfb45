// The reply lease as the reply box sees it: held in this person's name while they type, and
// someone else's shown while it runs. One timer wakes when the lease in force ends, so an open
// case costs nothing while nobody else replies (no clock ticking every second).
import * as commands from "../bindings/commands";
import type { Replying } from "../bindings/Replying";
import { otherReplying, shouldRenew } from "./replying";

/** The lease on one case, renewed as this desktop's person types. */
export class ReplyLease {
  #lease = $state<Replying | null>(null);
  /** The name this desktop's person goes by on cases; `null` until known. */
  me = $state<string | null>(null);
  /** The clock the lease is judged by (ms since the epoch), read again when a lease ends. */
  now = $state(Date.now());
  #lastHold = 0;
  #running = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(lease: Replying | null) {
    this.lease = lease;
  }

  /** The lease in force as last heard (from the case, or from this person's renewal). */
  get lease(): Replying | null {
    return this.#lease;
  }

  set lease(value: Replying | null) {
    this.#lease = value;
    this.#arm();
  }

  /** Someone else replying right now, or `null`. */
  get other(): Replying | null {
    return otherReplying(this.lease, this.me, this.now);
  }

  /** Learns who this desktop's person is and watches the lease's end; answers the function that stops it. */
  start(): () => void {
    commands.casesMe().then(
      (name) => (this.me = name),
      () => (this.me = null),
    );
    this.#running = true;
    this.#arm();
    return () => {
      this.#running = false;
      clearTimeout(this.#timer);
    };
  }

  /** Reads the clock, and sets the one timer for the moment the lease in force ends. */
  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.now = Date.now();
    if (!this.#running || !this.#lease) return;
    const left = Date.parse(this.#lease.until) - this.now;
    if (left > 0) this.#timer = setTimeout(() => this.#arm(), left + 1);
  }

  /** The person typed on case `caseId`: holds (renews) the lease, at most every few seconds. */
  typing(caseId: string): void {
    const at = Date.now();
    if (!shouldRenew(this.#lastHold, at)) return;
    this.#lastHold = at;
    commands.caseHoldReply({ id: caseId }).then(
      (held) => (this.lease = held),
      () => {},
    );
  }
}
