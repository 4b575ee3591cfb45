// The skills library and catalog over IPC, plus the events that keep their screens live.
// Commands are declared in src-tauri/src/commands/; their functions and every type are generated
// from Rust (`../bindings/commands.ts`).
import type { UnlistenFn } from "@tauri-apps/api/event";
import { listenTo } from "../bindings/events";
import { getCurrentWebview } from "@tauri-apps/api/webview";
import type { Activation } from "../bindings/Activation";
import type { ActivationSegment } from "../bindings/ActivationSegment";
import type { ActivationSegmentKind } from "../bindings/ActivationSegmentKind";
import type { AgentClient } from "../bindings/AgentClient";
import type { CatalogEntry } from "../bindings/CatalogEntry";
import type { ClientPreview } from "../bindings/ClientPreview";
import type { ListingFate } from "../bindings/ListingFate";
import type { DayCount } from "../bindings/DayCount";
import type { ExportReport } from "../bindings/ExportReport";
import type { DiffHunk } from "../bindings/DiffHunk";
import type { DiffLine } from "../bindings/DiffLine";
import type { FileDiff } from "../bindings/FileDiff";
import type { Finding } from "../bindings/Finding";
import type { ImportReport } from "../bindings/ImportReport";
import type { InstallPlace } from "../bindings/InstallPlace";
import type { InstallReport } from "../bindings/InstallReport";
import type { InstallTarget } from "../bindings/InstallTarget";
import type { Index } from "../bindings/Index";
import type { MatchOutcome } from "../bindings/MatchOutcome";
import type { ScanFinding } from "../bindings/ScanFinding";
import type { ScanSeverity } from "../bindings/ScanSeverity";
import type { IndexFormat } from "../bindings/IndexFormat";
import type { SkillDetail } from "../bindings/SkillDetail";
import type { SkillPage } from "../bindings/SkillPage";
import type { SkillQuery } from "../bindings/SkillQuery";
import type { SkillSummary } from "../bindings/SkillSummary";
import type { VersionInfo } from "../bindings/VersionInfo";
import * as commands from "../bindings/commands";

export type {
  AgentClient,
  ClientPreview,
  ListingFate,
  ExportReport,
  ScanFinding,
  ScanSeverity,
  Activation,
  ActivationSegment,
  ActivationSegmentKind,
  CatalogEntry,
  DayCount,
  DiffHunk,
  DiffLine,
  FileDiff,
  Finding,
  ImportReport,
  InstallPlace,
  InstallReport,
  InstallTarget,
  Index,
  IndexFormat,
  MatchOutcome,
  SkillDetail,
  SkillPage,
  SkillQuery,
  SkillSummary,
  VersionInfo,
};

/** One page of the skills list for a search and filters, sorted by name. */
export function listSkills(query: SkillQuery): Promise<SkillPage> {
  return commands.skillsList({ query });
}

/** Everything the skill screen shows about one skill. */
export function skillDetail(name: string): Promise<SkillDetail> {
  return commands.skillDetail({ name });
}

/** Level 1: the index of every visible skill, as the agent's prompt holds it. */
export function skillIndex(format: IndexFormat): Promise<Index> {
  return commands.skillIndex({ format });
}

/** How an agent client (Claude Code, Codex) would list the library and judge this skill, with
 * each level's token count; `budgetChars` null keeps the client's documented default. */
export function skillClientPreview(
  client: AgentClient,
  name: string,
  budgetChars: number | null,
): Promise<ClientPreview> {
  return commands.skillClientPreview({ client, name, budgetChars });
}

/** Level 2: what `read_skill(name, task?)` returns, with its parts marked. */
export function skillActivation(name: string, task: string | null): Promise<Activation> {
  return commands.skillActivation({ name, task });
}

/** Level 3: one support file's text, as `read_skill_file` returns it. */
export function skillFileText(name: string, path: string): Promise<string> {
  return commands.skillFileText({ name, path });
}

/** An image or other file of the skill as a `data:` URL, for the preview (images only). */
export function skillFileDataUrl(name: string, path: string): Promise<string> {
  return commands.skillFileDataUrl({ name, path });
}

/** Which skills a customer message fires; nothing is recorded. */
export function tryMessage(message: string): Promise<MatchOutcome> {
  return commands.skillsTryMessage({ message });
}

/** The text of any text file of a skill (`SKILL.md`, `skill.config.yaml`, references), for the editor. */
export function skillSource(name: string, path: string): Promise<string> {
  return commands.skillSource({ name, path });
}

/** Validates `text` as the new content of `path` without writing anything: the editor's live check. */
export function previewEdit(name: string, path: string, text: string): Promise<Finding[]> {
  return commands.skillPreviewEdit({ name, path, text });
}

/** Writes `text` to `path` (refused with findings when it would make the skill invalid). */
export function saveSkillFile(name: string, path: string, text: string): Promise<SkillDetail> {
  return commands.skillSaveFile({ name, path, text });
}

/** Creates a new local skill from the template. */
export function createSkill(name: string, description: string): Promise<SkillDetail> {
  return commands.skillCreate({ name, description });
}

/** Removes a support file from a skill. */
export function removeSkillFile(name: string, path: string): Promise<SkillDetail> {
  return commands.skillRemoveFile({ name, path });
}

/** Deletes a local skill's folder (its versions stay in the history). */
export function deleteSkill(name: string): Promise<void> {
  return commands.skillDelete({ name });
}

/** Imports one `.zip`/`.skill` package or skill folder by absolute path. */
export function importSkill(path: string): Promise<ImportReport> {
  return commands.skillsImport({ path });
}

/** Opens the native file dialog for packages; resolves with the chosen paths (empty when cancelled). */
export function pickPackages(title: string, filterName: string): Promise<string[]> {
  return commands.skillsPickPackages({ title, filterName });
}

/** Packs the skill into the `.skill` zip at `path`, refused when it breaks Anthropic's upload rules. */
export function exportSkill(name: string, path: string): Promise<ExportReport> {
  return commands.skillExport({ name, path });
}

/** The security scan of the skill's live folder. */
export function skillSecurityScan(name: string): Promise<ScanFinding[]> {
  return commands.skillSecurityScan({ name });
}

/** Every recorded version of a skill, newest first. */
export function skillVersions(name: string): Promise<VersionInfo[]> {
  return commands.skillVersions({ name });
}

/** File-by-file differences from version `from` to version `to`. */
export function skillDiff(name: string, from: number, to: number): Promise<FileDiff[]> {
  return commands.skillDiff({ name, from, to });
}

/** Makes `version` live again (rewrites the folder); resolves with the new live version. */
export function restoreVersion(name: string, version: number): Promise<VersionInfo> {
  return commands.skillRestore({ name, version });
}

/** Activations per day (hard and probe) over the last `days` days. */
export function skillActivity(name: string, days: number): Promise<DayCount[]> {
  return commands.skillActivity({ name, days });
}

/** Catalog skills and how each stands in the library. */
export function listCatalog(): Promise<CatalogEntry[]> {
  return commands.catalogList();
}

/** Copies a catalog skill into the skills directory. */
export function installCatalogSkill(name: string): Promise<SkillDetail> {
  return commands.catalogInstall({ name });
}

/** Deletes the local copy that shadows a catalog skill, bringing the catalog version back. */
export function removeOverride(name: string): Promise<void> {
  return commands.catalogRemoveOverride({ name });
}

/** Skill folders changed (`skill-changed` / `skill-removed`) or the view fell behind (`events-lagged`). */
export async function onSkillsChanged(handler: (change: { kind: "changed" | "removed" | "lagged"; name?: string }) => void): Promise<UnlistenFn> {
  const offs = await Promise.all([
    listenTo("skill-changed", (e) => handler({ kind: "changed", name: e.name })),
    listenTo("skill-removed", (e) => handler({ kind: "removed", name: e.name })),
    listenTo("events-lagged", () => handler({ kind: "lagged" })),
  ]);
  return () => offs.forEach((off) => off());
}

/** Progress of the start-up scan of a large skills directory. */
export function onScanProgress(handler: (progress: { done: number; total: number }) => void): Promise<UnlistenFn> {
  return listenTo("scan-progress", (e) => handler({ done: e.done, total: e.total }));
}

/** The skills directory became unreadable (with why) or came back. */
export function onSkillsDirStatus(handler: (status: { available: boolean; message: string | null }) => void): Promise<UnlistenFn> {
  return listenTo("skills-dir-status", (e) => handler({ available: e.available, message: e.message }));
}

/** What a drag over the window is doing: files entering, dropped (with absolute paths), or leaving. */
export type DragState = { type: "enter"; paths: string[] } | { type: "over" } | { type: "drop"; paths: string[] } | { type: "leave" };

/** Drag and drop of files on the window (Tauri's `tauri://drag-*` events, with absolute paths). */
export function onFileDrop(handler: (drag: DragState) => void): Promise<UnlistenFn> {
  return getCurrentWebview().onDragDropEvent((event) => {
    const p = event.payload;
    if (p.type === "enter" || p.type === "drop") handler({ type: p.type, paths: p.paths });
    else handler({ type: p.type });
  });
}

/** Where the skill is installed among the known targets, and how each copy stands. */
export function skillInstallStatus(name: string): Promise<InstallPlace[]> {
  return commands.skillInstallStatus({ name });
}

/** Copies the skill into every target; `force` replaces a folder Skillcase did not install. */
export function installSkill(name: string, targets: InstallTarget[], force: boolean): Promise<InstallReport> {
  return commands.skillInstall({ name, targets, force });
}
