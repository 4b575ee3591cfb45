// Settings → Team inbox over IPC: where the cases live, Test a team PostgreSQL, save it for the
// next start and restart into it. Commands are declared in src-tauri/src/commands/team.rs; their
// functions and every type are generated from Rust (`../bindings/commands.ts`).
import type { CopyReport } from "../bindings/CopyReport";
import type { TeamCheck } from "../bindings/TeamCheck";
import type { TeamInbox } from "../bindings/TeamInbox";
import type { TeamSource } from "../bindings/TeamSource";
import * as commands from "../bindings/commands";

export type { CopyReport, TeamCheck, TeamInbox, TeamSource };

/** Where this desktop's cases live now, and the team database saved for the next start. */
export function teamInbox(): Promise<TeamInbox> {
  return commands.teamInbox();
}

/** Reaches the team database at `url` and says what is there; nothing changes. */
export function testTeamDatabase(url: string): Promise<TeamCheck> {
  return commands.teamDatabaseTest({ url });
}

/** Saves the team database for the next start once it answers (`null`: the embedded one). */
export function saveTeamDatabase(url: string | null): Promise<TeamInbox> {
  return commands.teamDatabaseSave({ url });
}

/** Restarts Skillcase so a newly saved team database is used. */
export function restartApp(): Promise<void> {
  return commands.appRestart();
}

/** Copies this desktop's inbox into the empty team database at `url`, verified table by table. */
export function copyInboxToTeam(url: string): Promise<CopyReport> {
  return commands.teamCopyInbox({ url });
}
