// The reply lease as the reply box sees it: held in this person's name while they type, and
// someone else's shown while it runs (the clock ticks every second so it goes when it ends).
import * as commands from "../bindings/commands";
import type { Replying } from "../bindings/Replying";
import { otherReplying, shouldRenew } from "./replying";

/** The lease on one case, renewed as this desktop's person types. */
export class ReplyLease {
  /** The lease in force as last heard (from the case, or from this person's renewal). */
  lease = $state<Replying | null>(null);
  /** The name this desktop's person goes by on cases; `null` until known. */
  me = $state<string | null>(null);
  /** The clock the lease is judged by (ms since the epoch). */
  now = $state(Date.now());
  #lastHold = 0;

  constructor(lease: Replying | null) {
    this.lease = lease;
  }

  /** Someone else replying right now, or `null`. */
  get other(): Replying | null {
    return otherReplying(this.lease, this.me, this.now);
  }

  /** Learns who this desktop's person is and starts the clock; answers the function that stops it. */
  start(): () => void {
    commands.casesMe().then(
      (name) => (this.me = name),
      () => (this.me = null),
    );
    const timer = setInterval(() => (this.now = Date.now()), 1_000);
    return () => clearInterval(timer);
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
