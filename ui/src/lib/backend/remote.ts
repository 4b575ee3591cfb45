// Remote catalogs over IPC: subscriptions by URL, incremental pulls, and installing (forking) a
// skill from one. Commands are declared in src-tauri/src/commands/catalog.rs; their functions and
// every type are generated from Rust (`../bindings/commands.ts`).
import type { NewCatalog } from "../bindings/NewCatalog";
import type { PullAllReport } from "../bindings/PullAllReport";
import type { PullReport } from "../bindings/PullReport";
import type { RemoteCatalog } from "../bindings/RemoteCatalog";
import type { RemoteInstall } from "../bindings/RemoteInstall";
import type { RemoteSkill } from "../bindings/RemoteSkill";
import * as commands from "../bindings/commands";

export type { NewCatalog, PullAllReport, PullReport, RemoteCatalog, RemoteInstall, RemoteSkill };

/** Every subscribed remote catalog with its last pull. */
export function remoteCatalogs(): Promise<RemoteCatalog[]> {
  return commands.remoteCatalogs();
}

/** Subscribes to the catalog at `url` (its kind found by asking it); nothing is pulled yet. */
export function addRemoteCatalog(request: NewCatalog): Promise<RemoteCatalog> {
  return commands.remoteCatalogAdd({ request });
}

/** Removes a subscription; local copies installed from it stay. */
export function removeRemoteCatalog(id: number): Promise<void> {
  return commands.remoteCatalogRemove({ id });
}

/** Pulls one catalog, downloading only what changed. */
export function pullRemoteCatalog(id: number): Promise<PullReport> {
  return commands.remoteCatalogPull({ id });
}

/** Pulls every subscribed catalog. */
export function pullRemoteCatalogs(): Promise<PullAllReport> {
  return commands.remoteCatalogsPull();
}

/** The skills the pulls found, with their local copies and updates available. */
export function remoteSkills(): Promise<RemoteSkill[]> {
  return commands.remoteSkills();
}

/** Installs (forks) a remote skill into the skills directory, or updates the fork. */
export function installRemoteSkill(catalog: number, name: string): Promise<RemoteInstall> {
  return commands.remoteSkillInstall({ catalog, name });
}
