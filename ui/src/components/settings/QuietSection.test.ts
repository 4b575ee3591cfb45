import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/svelte";
import QuietSection from "./QuietSection.svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import * as commands from "$lib/bindings/commands";
import type { QuietSettings } from "$lib/bindings/QuietSettings";
import { aSettingsView } from "../../test/settings";
import { delayInput, fromMinutes, toMinutes } from "./delay";

vi.mock("$lib/bindings/commands", () => ({ settingsSetQuiet: vi.fn() }));
const mocked = vi.mocked(commands);

/** The settings with the quiet-customer delays `quiet`. */
const view = (quiet: QuietSettings) => aSettingsView({}, { quiet });

const OFF: QuietSettings = { remind: false, remind_after_minutes: 1440, close: false, close_after_minutes: 4320 };

describe("the quiet customers section", () => {
  beforeEach(() => {
    vi.clearAllMocks();
    setLocale("en");
  });

  it("starts off with a day and three days offered, the delays greyed out", () => {
    render(QuietSection, { props: { view: view(OFF), onsaved: () => {} } });
    expect((screen.getByLabelText("Remind the customer when they go quiet") as HTMLInputElement).checked).toBe(false);
    const remindAfter = screen.getByLabelText("Remind after") as HTMLInputElement;
    expect(remindAfter.value).toBe("24");
    expect(remindAfter.disabled).toBe(true);
    expect((screen.getByLabelText("Close after") as HTMLInputElement).value).toBe("72");
  });

  it("saves both delays turned on, in minutes, and hands the fresh view back", async () => {
    const onsaved = vi.fn();
    const saved = view({ remind: true, remind_after_minutes: 90, close: true, close_after_minutes: 120 });
    mocked.settingsSetQuiet.mockResolvedValue(saved);
    render(QuietSection, { props: { view: view(OFF), onsaved } });
    await fireEvent.click(screen.getByLabelText("Remind the customer when they go quiet"));
    const remindAfter = screen.getByLabelText("Remind after");
    await fireEvent.input(remindAfter, { target: { value: "90" } });
    await fireEvent.change(document.getElementById("quiet-remind-after-unit")!, { target: { value: "minutes" } });
    await fireEvent.click(screen.getByLabelText("Close the case if they stay quiet"));
    await fireEvent.input(screen.getByLabelText("Close after"), { target: { value: "2" } });
    await fireEvent.click(screen.getByTestId("quiet-save"));
    expect(mocked.settingsSetQuiet).toHaveBeenCalledWith({ quiet: { remind: true, remind_after_minutes: 90, close: true, close_after_minutes: 120 } });
    await screen.findByText("Saved.");
    expect(onsaved).toHaveBeenCalledWith(saved);
  });

  it("refuses a delay that is not a whole number without calling the backend", async () => {
    render(QuietSection, { props: { view: view({ ...OFF, remind: true }), onsaved: () => {} } });
    await fireEvent.input(screen.getByLabelText("Remind after"), { target: { value: "1.5" } });
    await fireEvent.click(screen.getByTestId("quiet-save"));
    expect(mocked.settingsSetQuiet).not.toHaveBeenCalled();
    expect(document.querySelector('[data-error="remind_after_minutes"]')?.textContent).toBe("Enter a whole number.");
  });

  it("shows the backend's refusal next to the delay it names, in Portuguese", async () => {
    setLocale("pt-BR");
    mocked.settingsSetQuiet.mockRejectedValue({
      code: "invalid_quiet_delay",
      message: "the quiet-customer delay close_after_minutes is 0 minutes",
      details: { field: "close_after_minutes" },
    });
    render(QuietSection, { props: { view: view({ ...OFF, close: true }), onsaved: () => {} } });
    await fireEvent.input(screen.getByLabelText("Encerrar depois de"), { target: { value: "0" } });
    await fireEvent.click(screen.getByTestId("quiet-save"));
    await screen.findByText("Escolha um prazo de 1 minuto a 90 dias.");
    expect(document.querySelector('[data-error="close_after_minutes"]')).not.toBeNull();
  });
});

describe("delays in minutes or hours", () => {
  it("shows whole hours as hours and anything else as minutes", () => {
    expect(fromMinutes(1440)).toEqual({ amount: 24, unit: "hours" });
    expect(fromMinutes(90)).toEqual({ amount: 90, unit: "minutes" });
    expect(toMinutes(3, "hours")).toBe(180);
  });

  it("puts a saved delay in the form with its switch, the amount as typed", () => {
    expect(delayInput(true, 120)).toEqual({ on: true, amount: "2", unit: "hours" });
    expect(delayInput(false, 45)).toEqual({ on: false, amount: "45", unit: "minutes" });
  });
});
