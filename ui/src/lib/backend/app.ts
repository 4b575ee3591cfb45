// App-wide facts for the status line.
import type { AppInfo } from "../bindings/AppInfo";
import * as commands from "../bindings/commands";

export type { AppInfo };

/** Version, skills directory, data directory, database path and API status (status line). */
export function appInfo(): Promise<AppInfo> {
  return commands.appInfo();
}
