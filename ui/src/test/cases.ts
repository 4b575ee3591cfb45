// The one case the UI tests start from: a refund waiting on the person, nobody on it yet.
// Each test overrides what it is about, so the input it depends on stays visible in the test.
import type { Case } from "$lib/bindings/Case";

/** A case waiting on the person, with `overrides` applied. */
export function aCase(overrides: Partial<Case> = {}): Case {
  return {
    id: "case-1",
    number: 1042n,
    conversation_id: "wa-1",
    lead: { name: "Maria Souza" },
    status: "awaiting_human",
    title: "Refund for a double charge",
    summary: "Charged twice.",
    context: [],
    source: "agent",
    reason: "policy_restriction",
    waiting_since: "2026-11-30T10:00:00.000Z",
    opened_at: "2026-11-30T10:00:00.000Z",
    updated_at: "2026-11-30T10:00:00.000Z",
    closed_at: null,
    sla: { first_reply: null, resolution: null, paused_since: null, next_due_at: null },
    assignee: null,
    ...overrides,
  };
}
