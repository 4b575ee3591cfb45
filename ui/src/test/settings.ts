// The settings the UI tests start from: every group as a fresh install has it, the API
// listening. Each test overrides what it is about, so the input it depends on stays visible.
import type { SettingsView } from "$lib/bindings/SettingsView";
import type { WorkspaceSettings } from "$lib/bindings/WorkspaceSettings";

/** The API token the view carries. */
export const TOKEN = "a".repeat(64);

/** The settings view with `overrides` applied, and `workspace` over its saved settings. */
export function aSettingsView(overrides: Partial<SettingsView> = {}, workspace: Partial<WorkspaceSettings> = {}): SettingsView {
  return {
    workspace: {
      skills_dir: null,
      api_port: 7878,
      policy: {
        allow_executable: false,
        allow_critical_findings: false,
        limits: { max_files: 64, max_file_bytes: 1048576, max_total_bytes: 5242880, asset_extensions: ["png", "md"] },
      },
      language: "system",
      theme: "system",
      calendar: { time_zone: null, working_days: ["monday", "tuesday", "wednesday", "thursday", "friday"], opens: "09:00", closes: "18:00", holidays: [], national_holidays: true, country: null, working_holidays: [] },
      quiet: { remind: false, remind_after_minutes: 1440, close: false, close_after_minutes: 4320 },
      you: { name: "", email: "" },
      response_targets: { first_reply_minutes: null, resolution_minutes: null },
      ...workspace,
    },
    skills_dir: "/repo/skills-examples",
    skills_dir_from_env: false,
    endpoint: null,
    agents: [],
    api: {
      status: { state: "listening", url: "http://127.0.0.1:7878" },
      url: "http://127.0.0.1:7878",
      token: TOKEN,
      curl: `curl -H "Authorization: Bearer ${TOKEN}" http://127.0.0.1:7878/v1/skills/index`,
    },
    team_person: null,
    ...overrides,
  };
}
