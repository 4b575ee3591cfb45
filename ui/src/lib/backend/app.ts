// App-wide facts for the status line.
import type { AppInfo } from "../bindings/AppInfo";
import { call } from "./core";

export type { AppInfo };

/** Version, skills directory, data directory, database path and API status (status line). */
export function appInfo(): Promise<AppInfo> {
  return call<AppInfo>("app_info");
}
