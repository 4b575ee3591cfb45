// The Settings screen's commands and the `settings-changed` event.
import type { UnlistenFn } from "@tauri-apps/api/event";
import { listenTo } from "../bindings/events";
import type { SettingsView } from "../bindings/SettingsView";
import type { EndpointInput } from "../bindings/EndpointInput";
import type { PingOutcome } from "../bindings/PingOutcome";
import type { Policy } from "../bindings/Policy";
import type { Language } from "../bindings/Language";
import type { Theme } from "../bindings/Theme";
import type { GuardCalendarSettings as CalendarSettings } from "../bindings/GuardCalendarSettings";
import type { GuardWeekday as Weekday } from "../bindings/GuardWeekday";
import type { QuietSettings } from "../bindings/QuietSettings";
import type { AgentInput } from "../bindings/AgentInput";
import type { AgentView } from "../bindings/AgentView";
import type { YouSettings } from "../bindings/YouSettings";
import type { CaseAlerts } from "../bindings/CaseAlerts";
import type { ResponseTargets } from "../bindings/ResponseTargets";
import * as commands from "../bindings/commands";

export type {
  SettingsView,
  EndpointInput,
  PingOutcome,
  Policy,
  Language,
  Theme,
  CalendarSettings,
  Weekday,
  QuietSettings,
  AgentInput,
  AgentView,
  YouSettings,
  CaseAlerts,
  ResponseTargets,
};

/** Everything the Settings screen shows. */
export function getSettings(): Promise<SettingsView> {
  return commands.settingsGet();
}

/** Saves the skills directory (`null` = the default) and serves it at once. */
export function setSkillsDir(path: string | null): Promise<SettingsView> {
  return commands.settingsSetSkillsDir({ path });
}

/** Moves the local API to `port`; refused (and the API left where it was) when it is taken. */
export function setApiPort(port: number): Promise<SettingsView> {
  return commands.settingsSetApiPort({ port });
}

/** Saves the import policy and limits. */
export function setPolicy(policy: Policy): Promise<SettingsView> {
  return commands.settingsSetPolicy({ policy });
}

/** Saves the UI language. */
export function setLanguage(language: Language): Promise<SettingsView> {
  return commands.settingsSetLanguage({ language });
}

/** Saves the theme. */
export function setTheme(theme: Theme): Promise<SettingsView> {
  return commands.settingsSetTheme({ theme });
}

/** Saves the business calendar promises' due times are resolved in. */
export function setCalendar(calendar: CalendarSettings): Promise<SettingsView> {
  return commands.settingsSetCalendar({ calendar });
}

/** Saves the quiet-customer reminder and auto-close delays. */
export function setQuiet(quiet: QuietSettings): Promise<SettingsView> {
  return commands.settingsSetQuiet({ quiet });
}

/** Saves the name and e-mail of the person at this desktop (saved replies' `{{person.*}}`). */
export function setYou(you: YouSettings): Promise<SettingsView> {
  return commands.settingsSetYou({ you });
}

/** Saves the response-time targets (first reply, resolution) new cases are opened under. */
export function setResponseTargets(targets: ResponseTargets): Promise<SettingsView> {
  return commands.settingsSetResponseTargets({ targets });
}

/** Saves the agent endpoint. */
export function setEndpoint(input: EndpointInput): Promise<SettingsView> {
  return commands.settingsSetEndpoint({ input });
}

/** Saves one agent's own endpoint and switches. */
export function setAgent(input: AgentInput): Promise<SettingsView> {
  return commands.settingsSetAgent({ input });
}

/** Forgets one agent's settings: its replies go to the default endpoint, every switch on. */
export function removeAgent(agentId: string): Promise<SettingsView> {
  return commands.settingsRemoveAgent({ agentId });
}

/** Pings the endpoint as typed, saved or not. */
export function testEndpoint(input: EndpointInput): Promise<PingOutcome> {
  return commands.settingsTestEndpoint({ input });
}

/** A fresh random signing secret. */
export function generateSecret(): Promise<string> {
  return commands.settingsGenerateSecret();
}

/** Replaces the API token. */
export function rotateToken(): Promise<SettingsView> {
  return commands.settingsRotateToken();
}

/** Calls `handler` whenever a setting changes (from this window or another). */
export function onSettingsChanged(handler: () => void): Promise<UnlistenFn> {
  return listenTo("settings-changed", () => handler());
}

/** Puts text on the clipboard: the clipboard API, else a hidden text area and `copy`. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}
