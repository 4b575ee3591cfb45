// The case inbox and case detail: typed commands and the `case-opened` / `case-changed` events.
import { listen, type UnlistenFn } from "@tauri-apps/api/event";
import type { CaseFilter } from "../bindings/CaseFilter";
import type { CasePage } from "../bindings/CasePage";
import type { CaseListItem } from "../bindings/CaseListItem";
import type { CaseWithTimeline } from "../bindings/CaseWithTimeline";
import type { Case } from "../bindings/Case";
import type { CaseEvent } from "../bindings/CaseEvent";
import type { CaseStatus } from "../bindings/CaseStatus";
import type { CaseTab } from "../bindings/CaseTab";
import type { Delivery } from "../bindings/Delivery";
import type { DeliveryState } from "../bindings/DeliveryState";
import type { HumanAction } from "../bindings/HumanAction";
import type { OutboxStatus } from "../bindings/OutboxStatus";
import type { EndpointHealth } from "../bindings/EndpointHealth";
import type { TabCounts } from "../bindings/TabCounts";
import type { DomainEvent } from "../bindings/DomainEvent";
import { call } from "./core";

export type {
  Case,
  CaseEvent,
  CaseFilter,
  CaseListItem,
  CasePage,
  CaseStatus,
  CaseTab,
  CaseWithTimeline,
  Delivery,
  DeliveryState,
  EndpointHealth,
  HumanAction,
  OutboxStatus,
  TabCounts,
};

/** One inbox page (tab, search, status, dates, offset, limit). */
export function listCases(filter: CaseFilter): Promise<CasePage> {
  return call<CasePage>("cases_list", { filter });
}

/** Cases per tab and unread cases waiting on the person. */
export function caseCounts(): Promise<TabCounts> {
  return call<TabCounts>("cases_counts");
}

/** One case with its timeline and deliveries. */
export function getCase(id: string): Promise<CaseWithTimeline> {
  return call<CaseWithTimeline>("case_get", { id });
}

/** Marks a case read (opened) or unread again. */
export function markCaseRead(id: string, read: boolean): Promise<void> {
  return call<void>("case_mark_read", { id, read });
}

/** The person's answer; returns the case as it now stands. */
export function replyToCase(id: string, action: HumanAction, text: string): Promise<CaseWithTimeline> {
  return call<CaseWithTimeline>("case_reply", { id, action, text });
}

/** Sends a failed or dead delivery again. */
export function retryDelivery(id: string): Promise<Delivery> {
  return call<Delivery>("delivery_retry", { id });
}

/** Whether replies reach the agent endpoint (the banner). */
export function outboxStatus(): Promise<OutboxStatus> {
  return call<OutboxStatus>("outbox_status");
}

type CaseEventPayload = Extract<DomainEvent, { kind: "case_opened" | "case_changed" }>;

/** Calls `handler` with the id of each case the agent or the guardrail opens. */
export function onCaseOpened(handler: (id: string) => void): Promise<UnlistenFn> {
  return listen<CaseEventPayload>("case-opened", (event) => handler(event.payload.id));
}

/** Calls `handler` with the id of each case whose status, timeline or delivery changed. */
export function onCaseChanged(handler: (id: string) => void): Promise<UnlistenFn> {
  return listen<CaseEventPayload>("case-changed", (event) => handler(event.payload.id));
}

/** Calls `handler` when events were dropped and every view should reload. */
export function onEventsLagged(handler: () => void): Promise<UnlistenFn> {
  return listen("events-lagged", () => handler());
}
