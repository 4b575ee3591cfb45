import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/svelte";
import SettingsScreen from "./SettingsScreen.svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import * as backend from "$lib/backend";
import * as commands from "$lib/bindings/commands";
import { aSettingsView as view, TOKEN } from "../test/settings";

vi.mock("$lib/bindings/commands", () => ({
  savedRepliesList: vi.fn(async () => []),
  pickFolder: vi.fn(),
  mcpSetup: vi.fn(async () => ({ command: "skillcase", args: ["mcp"], env: {}, http_url: "http://127.0.0.1:7878/mcp" })),
  mcpClients: vi.fn(async () => []),
  teamInbox: vi.fn(async () => ({ url: null, source: "embedded", saved: null, problem: null })),
  teamDatabaseTest: vi.fn(),
  teamDatabaseSave: vi.fn(),
  appRestart: vi.fn(),
  settingsGet: vi.fn(),
  settingsSetSkillsDir: vi.fn(),
  settingsSetApiPort: vi.fn(),
  settingsSetPolicy: vi.fn(),
  settingsSetCalendar: vi.fn(),
  settingsNationalHolidays: vi.fn(async ({ country }: { country: string | null }) => ({
    country:
      country === "US"
        ? { code: "US", name_en: "United States", name_pt: "Estados Unidos" }
        : { code: "BR", name_en: "Brazil", name_pt: "Brasil" },
    from_zone: country === null,
    holidays:
      country === "US"
        ? [{ date: "2026-12-25", name_en: "Christmas Day", name_pt: null }]
        : [
            { date: "2026-12-25", name_en: "Christmas Day", name_pt: "Natal" },
            { date: "2027-01-01", name_en: "Universal Fraternization Day", name_pt: "Confraternização Universal" },
          ],
    countries: [
      { code: "BR", name_en: "Brazil", name_pt: "Brasil" },
      { code: "US", name_en: "United States", name_pt: "Estados Unidos" },
    ],
  })),
  settingsSetQuiet: vi.fn(),
  settingsSetYou: vi.fn(),
  settingsSetLanguage: vi.fn(),
  settingsSetTheme: vi.fn(),
  settingsSetEndpoint: vi.fn(),
  settingsTestEndpoint: vi.fn(),
  settingsGenerateSecret: vi.fn(),
  settingsRotateToken: vi.fn(),
}));
vi.mock("$lib/backend", () => ({
  copyText: vi.fn(async () => {}),
  onMcpClientsChanged: vi.fn(async () => () => {}),
}));

/** Queries within Settings → Agent endpoint (the team inbox has a Test button too). */
function endpointSection() {
  return within(document.querySelector('[data-section="endpoint"]') as HTMLElement);
}

const mocked = { ...vi.mocked(backend), ...vi.mocked(commands) };

async function renderLoaded() {
  render(SettingsScreen);
  await screen.findByRole("heading", { name: "Agent endpoint" });
}

async function renderLoadedInPortuguese() {
  render(SettingsScreen);
  await screen.findByRole("heading", { name: "Horário de atendimento" });
}

/** The block of the field named `name` (label, control, hint, error). */
function field(name: string): HTMLElement {
  const found = document.querySelector<HTMLElement>(`[data-field="${name}"]`);
  if (!found) throw new Error(`no field ${name}`);
  return found;
}

describe("the settings screen", () => {
  beforeEach(() => {
    vi.clearAllMocks();
    setLocale("en");
    delete document.documentElement.dataset.theme;
    mocked.settingsGet.mockResolvedValue(view());
  });

  it("shows a team member what the admins set without letting them change it, and says why", async () => {
    mocked.settingsGet.mockResolvedValue(
      view({ team_person: { login: "ana", name: "Ana Lima", email: null, role: "member" } }),
    );
    await renderLoaded();
    for (const id of ["endpoint", "ai-agents", "calendar", "response-times"]) {
      const section = document.querySelector<HTMLElement>(`[data-section="${id}"]`)!;
      expect(screen.getByTestId(`${id}-locked`).textContent).toContain("You are signed in as Ana Lima, a member");
      for (const control of section.querySelectorAll<HTMLInputElement | HTMLButtonElement>("input, button, select")) {
        expect(control.matches(":disabled"), `${id}: ${control.outerHTML.slice(0, 60)}`).toBe(true);
      }
    }
    expect(screen.queryByTestId("appearance-locked")).toBeNull();
  });

  it("lets a team admin change what the admins set", async () => {
    mocked.settingsGet.mockResolvedValue(
      view({ team_person: { login: "bia", name: "Bia Costa", email: null, role: "admin" } }),
    );
    await renderLoaded();
    expect(screen.queryByTestId("endpoint-locked")).toBeNull();
  });

  it("gives every input a label", async () => {
    await renderLoaded();
    for (const input of document.querySelectorAll("input")) {
      const labelled = input.labels && input.labels.length > 0;
      expect(labelled, `input ${input.id || input.name} has a label`).toBe(true);
    }
  });

  it("shows a port in use next to the port field and keeps the API where it was", async () => {
    mocked.settingsSetApiPort.mockRejectedValue({
      code: "api_port_in_use",
      message: "port 7879 on 127.0.0.1 is already in use; choose another one",
      details: { field: "api_port" },
    });
    await renderLoaded();
    const port = screen.getByLabelText("Port") as HTMLInputElement;
    await fireEvent.input(port, { target: { value: "7879" } });
    await fireEvent.submit(port.form!);
    const error = await within(field("api_port")).findByRole("alert");
    expect(error.textContent).toBe("Port 7879 is already in use. Choose another one.");
    expect(port.getAttribute("aria-invalid")).toBe("true");
    expect(port.getAttribute("aria-describedby")).toBe(error.id);
    expect(screen.getByTestId("api-url").textContent).toBe("http://127.0.0.1:7878");
  });

  it("refuses a port that is not a number without asking the backend", async () => {
    await renderLoaded();
    const port = screen.getByLabelText("Port") as HTMLInputElement;
    await fireEvent.input(port, { target: { value: "78x" } });
    await fireEvent.submit(port.form!);
    expect(within(field("api_port")).getByRole("alert").textContent).toBe("Enter a whole number.");
    expect(mocked.settingsSetApiPort).not.toHaveBeenCalled();
  });

  it("puts an endpoint URL without a scheme's error next to the URL field only", async () => {
    mocked.settingsSetEndpoint.mockRejectedValue({
      code: "invalid_endpoint_url",
      message: 'the agent endpoint URL "example.com" is not valid: relative URL without a base',
      details: { url: "example.com" },
    });
    await renderLoaded();
    const url = screen.getByLabelText("URL") as HTMLInputElement;
    await fireEvent.input(url, { target: { value: "example.com" } });
    await fireEvent.submit(url.form!);
    const error = await within(field("url")).findByRole("alert");
    expect(error.textContent).toBe("Enter a full address starting with http:// or https://.");
    expect(within(field("secret")).queryByRole("alert")).toBeNull();
    expect(mocked.settingsSetEndpoint).toHaveBeenCalledWith({
      input: {
        url: "example.com",
        secret: undefined,
        timeout_secs: 10,
        max_attempts: 15,
        enabled: true,
      },
    });
  });

  it("shows the outcome of a successful endpoint test", async () => {
    mocked.settingsTestEndpoint.mockResolvedValue({ ok: true, status: 204, error: null, elapsed_ms: 12 });
    await renderLoaded();
    await fireEvent.input(screen.getByLabelText("URL"), { target: { value: "http://127.0.0.1:9000/hook" } });
    await fireEvent.click(endpointSection().getByRole("button", { name: "Test" }));
    expect((await screen.findByTestId("endpoint-test-result")).textContent?.trim()).toBe(
      "The endpoint answered 204 in 12 ms.",
    );
  });

  it("shows why an endpoint test failed", async () => {
    mocked.settingsTestEndpoint.mockResolvedValue({ ok: false, status: null, error: "cannot connect", elapsed_ms: 3 });
    await renderLoaded();
    await fireEvent.click(endpointSection().getByRole("button", { name: "Test" }));
    expect((await screen.findByTestId("endpoint-test-result")).textContent?.trim()).toBe(
      "The test failed: cannot connect",
    );
  });

  it("fills a generated secret and shows it", async () => {
    mocked.settingsGenerateSecret.mockResolvedValue("whsec_generated");
    await renderLoaded();
    const endpoint = within(document.querySelector('[data-section="endpoint"]') as HTMLElement);
    await fireEvent.click(endpoint.getByRole("button", { name: "Generate" }));
    const secret = endpoint.getByLabelText("Signing secret") as HTMLInputElement;
    await vi.waitFor(() => expect(secret.value).toBe("whsec_generated"));
    expect(secret.type).toBe("text");
  });

  it("masks the token and rotates it only after confirming", async () => {
    const rotated = "b".repeat(64);
    mocked.settingsRotateToken.mockResolvedValue(view({ api: { ...view().api, token: rotated } }));
    await renderLoaded();
    expect(screen.getByTestId("api-token").textContent).not.toContain(TOKEN);
    await fireEvent.click(screen.getByRole("button", { name: "Rotate…" }));
    expect(mocked.settingsRotateToken).not.toHaveBeenCalled();
    await fireEvent.click(screen.getByRole("button", { name: "Rotate token" }));
    expect(mocked.settingsRotateToken).toHaveBeenCalledOnce();
    await fireEvent.click(screen.getByRole("button", { name: "Show token" }));
    await vi.waitFor(() => expect(screen.getByTestId("api-token").textContent?.trim()).toBe(rotated));
  });

  it("masks the token in the curl line until the token is shown, and copies the real line", async () => {
    await renderLoaded();
    expect(screen.getByTestId("api-curl").textContent).not.toContain(TOKEN);
    await fireEvent.click(document.querySelector<HTMLButtonElement>('[data-action="copy-curl"]')!);
    expect(mocked.copyText).toHaveBeenCalledWith(view().api.curl);
    await fireEvent.click(screen.getByRole("button", { name: "Show token" }));
    expect(screen.getByTestId("api-curl").textContent).toContain(TOKEN);
  });

  it("cancels a rotation with Escape and puts focus on the confirm button when asked", async () => {
    await renderLoaded();
    await fireEvent.click(screen.getByRole("button", { name: "Rotate…" }));
    const confirm = screen.getByRole("button", { name: "Rotate token" });
    expect(document.activeElement).toBe(confirm);
    await fireEvent.keyDown(confirm, { key: "Escape" });
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(mocked.settingsRotateToken).not.toHaveBeenCalled();
  });

  it("shows a limit refusal next to its field", async () => {
    mocked.settingsSetPolicy.mockRejectedValue({
      code: "invalid_limit",
      message: "the import limit max_files must be from 1 to 10000",
      details: { field: "max_files" },
    });
    await renderLoaded();
    const files = screen.getByLabelText("Most files per package") as HTMLInputElement;
    await fireEvent.input(files, { target: { value: "0" } });
    await fireEvent.submit(files.form!);
    expect((await within(field("max_files")).findByRole("alert")).textContent).toBe(
      "Enter a whole number from 1 to 10000.",
    );
  });

  it("sends limits in bytes and extensions as a list", async () => {
    mocked.settingsSetPolicy.mockResolvedValue(view());
    await renderLoaded();
    await fireEvent.input(screen.getByLabelText("Largest file (KB)"), { target: { value: "2048" } });
    await fireEvent.input(screen.getByLabelText("Asset extensions"), { target: { value: "png, pdf  mp3" } });
    await fireEvent.submit((screen.getByLabelText("Asset extensions") as HTMLInputElement).form!);
    expect(mocked.settingsSetPolicy).toHaveBeenCalledWith({
      policy: {
        allow_executable: false,
        allow_critical_findings: false,
        limits: { max_files: 64, max_file_bytes: 2097152, max_total_bytes: 5242880, asset_extensions: ["png", "pdf", "mp3"] },
      },
    });
  });

  it("sends the business calendar with the chosen days, the zone and holidays as a list", async () => {
    mocked.settingsSetCalendar.mockResolvedValue(view());
    await renderLoaded();
    await fireEvent.input(screen.getByLabelText("Time zone"), { target: { value: " America/Sao_Paulo " } });
    await fireEvent.click(screen.getByLabelText("Friday"));
    await fireEvent.click(screen.getByLabelText("Saturday"));
    await fireEvent.input(screen.getByLabelText("Other days off"), { target: { value: "2026-12-24, 2026-12-31" } });
    await fireEvent.click(screen.getByTestId("calendar-save"));
    expect(mocked.settingsSetCalendar).toHaveBeenCalledWith({
      calendar: {
        time_zone: "America/Sao_Paulo",
        working_days: ["monday", "tuesday", "wednesday", "thursday", "saturday"],
        opens: "09:00",
        closes: "18:00",
        holidays: ["2026-12-24", "2026-12-31"],
        national_holidays: true,
        country: null,
        working_holidays: [],
      },
    });
  });

  it("lists the zone's national holidays by name and sends the ones unticked as worked", async () => {
    mocked.settingsSetCalendar.mockResolvedValue(view());
    await renderLoaded();
    const list = await screen.findByTestId("national-holidays");
    expect(within(list).getByText("Christmas Day")).toBeTruthy();
    expect((screen.getByTestId("calendar-country") as HTMLSelectElement).selectedOptions[0].textContent?.trim()).toBe(
      "The time zone's country (Brazil)",
    );
    await fireEvent.click(list.querySelector('input[data-date="2027-01-01"]')!);
    await fireEvent.click(screen.getByTestId("calendar-save"));
    expect(mocked.settingsSetCalendar.mock.calls[0][0].calendar).toMatchObject({
      national_holidays: true,
      country: null,
      working_holidays: ["2027-01-01"],
    });
  });

  it("sends a chosen country, and none when national holidays are turned off", async () => {
    mocked.settingsSetCalendar.mockResolvedValue(view());
    await renderLoaded();
    await screen.findByTestId("national-holidays");
    await fireEvent.change(screen.getByTestId("calendar-country"), { target: { value: "US" } });
    await fireEvent.click(screen.getByTestId("calendar-save"));
    expect(mocked.settingsSetCalendar.mock.calls[0][0].calendar).toMatchObject({ national_holidays: true, country: "US" });
    await fireEvent.change(screen.getByTestId("calendar-country"), { target: { value: "none" } });
    await fireEvent.click(screen.getByTestId("calendar-save"));
    expect(mocked.settingsSetCalendar.mock.calls[1][0].calendar).toMatchObject({ national_holidays: false, country: null });
  });

  it("names the national holidays in Portuguese", async () => {
    setLocale("pt-BR");
    await renderLoadedInPortuguese();
    const list = await screen.findByTestId("national-holidays");
    expect(within(list).getByText("Natal")).toBeTruthy();
    expect(within(list).getByText("Confraternização Universal")).toBeTruthy();
  });

  it("puts an unknown time zone's refusal next to the zone field, in Portuguese too", async () => {
    setLocale("pt-BR");
    mocked.settingsSetCalendar.mockRejectedValue({
      code: "invalid_calendar",
      message: "unknown time zone Mars/Olympus",
      details: { field: "time_zone" },
    });
    await renderLoadedInPortuguese();
    await fireEvent.input(screen.getByLabelText("Fuso horário"), { target: { value: "Mars/Olympus" } });
    await fireEvent.click(screen.getByTestId("calendar-save"));
    expect((await within(field("time_zone")).findByRole("alert")).textContent).toBe(
      "O Skillcase não conhece este fuso horário. Use um nome IANA como America/Sao_Paulo.",
    );
  });

  it("puts a skills directory refusal next to the folder field", async () => {
    mocked.settingsSetSkillsDir.mockRejectedValue({
      code: "invalid_skills_dir",
      message: 'the skills directory "skills" cannot be used: the path must be absolute',
      details: { field: "skills_dir" },
    });
    await renderLoaded();
    const folder = screen.getByLabelText("Folder") as HTMLInputElement;
    await fireEvent.input(folder, { target: { value: "skills" } });
    await fireEvent.submit(folder.form!);
    expect((await within(field("skills_dir")).findByRole("alert")).textContent).toBe(
      "Choose an existing folder Skillcase can read, as a full path.",
    );
    expect(mocked.settingsSetSkillsDir).toHaveBeenCalledWith({ path: "skills" });
  });

  it("saves the folder chosen in the native picker at once", async () => {
    mocked.pickFolder.mockResolvedValue("/home/ana/skills");
    mocked.settingsSetSkillsDir.mockResolvedValue(view({ skills_dir: "/home/ana/skills" }));
    await renderLoaded();
    await fireEvent.click(screen.getByRole("button", { name: "Choose…" }));
    await vi.waitFor(() => expect(mocked.settingsSetSkillsDir).toHaveBeenCalledWith({ path: "/home/ana/skills" }));
    expect((await screen.findByTestId("skills-dir-in-force")).textContent).toBe("In use now: /home/ana/skills");
  });

  it("switches the whole screen to Portuguese when Português is picked, and saves it", async () => {
    mocked.settingsSetLanguage.mockResolvedValue(view());
    await renderLoaded();
    await fireEvent.click(screen.getByLabelText("Português do Brasil"));
    expect(await screen.findByRole("heading", { level: 1, name: "Configurações" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Endpoint do agente" })).toBeTruthy();
    expect(mocked.settingsSetLanguage).toHaveBeenCalledWith({ language: "pt-BR" });
  });

  it("pins the dark theme on the page and returns to the system theme", async () => {
    mocked.settingsSetTheme.mockResolvedValue(view());
    await renderLoaded();
    await fireEvent.click(screen.getByLabelText("Dark"));
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(mocked.settingsSetTheme).toHaveBeenLastCalledWith({ theme: "dark" });
    await fireEvent.click(screen.getByLabelText("System", { selector: '[name="theme"]' }));
    expect(document.documentElement.dataset.theme).toBeUndefined();
    expect(mocked.settingsSetTheme).toHaveBeenLastCalledWith({ theme: "system" });
  });

  it("says so when the settings cannot be read", async () => {
    mocked.settingsGet.mockRejectedValue({ code: "db_error", message: "disk I/O error" });
    render(SettingsScreen);
    expect((await screen.findByRole("alert")).textContent).toBe("Settings could not be read: disk I/O error");
  });
});
