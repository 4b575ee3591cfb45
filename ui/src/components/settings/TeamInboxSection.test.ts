import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/svelte";
import TeamInboxSection from "./TeamInboxSection.svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import * as commands from "$lib/bindings/commands";

vi.mock("$lib/bindings/commands", () => ({
  teamInbox: vi.fn(),
  teamDatabaseTest: vi.fn(),
  teamDatabaseSave: vi.fn(),
  appRestart: vi.fn(),
  teamCopyInbox: vi.fn(),
}));

const mocked = vi.mocked(commands);
const EMBEDDED = { url: null, source: "embedded" as const, saved: null, problem: null, person: null };

async function typeUrl(value: string) {
  await fireEvent.input(await screen.findByTestId("team-url"), { target: { value } });
}

beforeEach(() => {
  setLocale("en");
  mocked.teamInbox.mockReset().mockResolvedValue(EMBEDDED);
  mocked.teamDatabaseTest.mockReset();
  mocked.teamDatabaseSave.mockReset();
});

describe("Settings → Team inbox", () => {
  it("says the cases live on this desktop when no team database is set", async () => {
    render(TeamInboxSection);
    expect((await screen.findByTestId("team-in-use")).textContent).toContain("this desktop only");
  });

  it("says who this desktop is signed in as on a team with roles", async () => {
    mocked.teamInbox.mockResolvedValue({
      ...EMBEDDED,
      url: "postgres://ana:****@db/support",
      source: "settings",
      person: { login: "ana", name: "Ana Lima", email: "ana@example.com", role: "member" },
    });
    render(TeamInboxSection);
    expect((await screen.findByTestId("team-person")).textContent?.trim()).toBe("Signed in as Ana Lima (ana), member.");
  });

  it("tests the typed connection string and says what answered", async () => {
    mocked.teamDatabaseTest.mockResolvedValue({ url: "postgres://ana:****@db/support", server_version: "15.18", cases: 0 });
    render(TeamInboxSection);
    await typeUrl("postgres://ana:s3cret@db/support");
    await fireEvent.click(screen.getByTestId("team-test"));
    expect(mocked.teamDatabaseTest).toHaveBeenCalledWith({ url: "postgres://ana:s3cret@db/support" });
    expect((await screen.findByTestId("team-test-result")).textContent).toContain("15.18");
  });

  it("offers an empty team database this desktop's cases and says what was copied", async () => {
    mocked.teamDatabaseTest.mockResolvedValue({ url: "postgres://db/support", server_version: "15.18", cases: 0 });
    mocked.teamCopyInbox.mockResolvedValue({
      tables: [
        { table: "cases", rows: 3, sha256: "a".repeat(64) },
        { table: "case_events", rows: 7, sha256: "b".repeat(64) },
      ],
    });
    render(TeamInboxSection);
    await typeUrl("postgres://db/support");
    await fireEvent.click(screen.getByTestId("team-test"));
    await fireEvent.click(await screen.findByTestId("team-copy"));
    expect(mocked.teamCopyInbox).toHaveBeenCalledWith({ url: "postgres://db/support" });
    expect((await screen.findByTestId("team-copied")).textContent).toContain("Copied 3 cases");
  });

  it("saves for the next start, clears the field and offers a restart", async () => {
    mocked.teamDatabaseSave.mockResolvedValue({ ...EMBEDDED, saved: "postgres://ana:****@db/support" });
    render(TeamInboxSection);
    await typeUrl("postgres://ana:s3cret@db/support");
    await fireEvent.click(screen.getByTestId("team-save"));
    expect(await screen.findByTestId("team-restart")).toBeTruthy();
    expect((screen.getByTestId("team-url") as HTMLInputElement).value).toBe("");
    expect(document.body.textContent).not.toContain("s3cret");
  });

  it("shows why the team database was not opened at start", async () => {
    mocked.teamInbox.mockResolvedValue({ ...EMBEDDED, saved: "postgres://db/support", problem: "connection refused" });
    render(TeamInboxSection);
    expect((await screen.findByTestId("team-problem")).textContent).toContain("connection refused");
  });
});
