import { beforeEach, describe, expect, it, vi } from "vitest";
import type { SettingsView } from "$lib/bindings/SettingsView";
import { setLocale } from "$lib/i18n/index.svelte";
import { SaveForm } from "./saveForm.svelte";

// The form never looks inside the view it is handed; only which one it passes on matters.
const FRESH = { skills_dir: "/home/ana/skills" } as SettingsView;

beforeEach(() => setLocale("en"));

describe("saving a Settings form", () => {
  it("marks the form saved and hands the fresh view on once the command answers", async () => {
    const onsaved = vi.fn();
    const form = new SaveForm(onsaved);
    const answered = await form.save(async () => FRESH);
    expect(answered).toBe(FRESH);
    expect(form.saved).toBe(true);
    expect(form.errors).toEqual({});
    expect(onsaved).toHaveBeenCalledWith(FRESH);
  });

  it("refreshes the form from the fresh view before handing it on", async () => {
    const order: string[] = [];
    const form = new SaveForm(() => order.push("handed on"));
    await form.save(async () => FRESH, (fresh) => order.push(`applied ${fresh.skills_dir}`));
    expect(order).toEqual(["applied /home/ana/skills", "handed on"]);
  });

  it("is busy while the command runs and no longer once it answers", async () => {
    let answer: (view: SettingsView) => void = () => {};
    const form = new SaveForm(() => {});
    const saving = form.save(() => new Promise((resolve) => (answer = resolve)));
    expect(form.busy).toBe(true);
    answer(FRESH);
    await saving;
    expect(form.busy).toBe(false);
  });

  it("puts a refusal next to the field it names, in the current language, and hands nothing on", async () => {
    setLocale("pt-BR");
    const onsaved = vi.fn();
    const form = new SaveForm(onsaved);
    const answered = await form.save(() =>
      Promise.reject({ code: "invalid_quiet_delay", message: "close_after_minutes is 0", details: { field: "close_after_minutes" } }),
    );
    expect(answered).toBeNull();
    expect(form.errors).toEqual({ close_after_minutes: "Escolha um prazo de 1 minuto a 90 dias." });
    expect(form.saved).toBe(false);
    expect(form.busy).toBe(false);
    expect(onsaved).not.toHaveBeenCalled();
  });

  it("puts a refusal that names no field under the whole form, with the backend's message", async () => {
    const form = new SaveForm(() => {});
    await form.save(() => Promise.reject({ code: "db_error", message: "disk I/O error" }));
    expect(form.errors).toEqual({ _form: "disk I/O error" });
  });

  it("fills the refusal's message with the values it is given", async () => {
    const form = new SaveForm(() => {});
    await form.save(() => Promise.reject({ code: "api_bind_failed", message: "address in use" }), undefined, { port: 80 });
    expect(form.errors).toEqual({ api_port: "Skillcase cannot listen on port 80." });
  });

  it("forgets the last refusal once a save goes through", async () => {
    const form = new SaveForm(() => {});
    await form.save(() => Promise.reject({ code: "db_error", message: "disk I/O error" }));
    await form.save(async () => FRESH);
    expect(form.errors).toEqual({});
  });

  it("takes the Saved mark away as soon as the next save starts", async () => {
    const form = new SaveForm(() => {});
    await form.save(async () => FRESH);
    void form.save(() => new Promise(() => {}));
    expect(form.saved).toBe(false);
  });
});

describe("reading whole numbers from a Settings form", () => {
  it("answers the numbers typed, spaces ignored, and null for a field switched off", () => {
    const form = new SaveForm(() => {});
    expect(form.wholeNumbers({ max_files: " 64 ", first_reply_minutes: null })).toEqual({ max_files: 64, first_reply_minutes: null });
  });

  it("refuses every field that does not hold a whole number, and only those", () => {
    const form = new SaveForm(() => {});
    const read = form.wholeNumbers({ max_files: "64", max_file_bytes: "1.5", max_total_bytes: "lots" });
    expect(read).toBeNull();
    expect(form.errors).toEqual({ max_file_bytes: "Enter a whole number.", max_total_bytes: "Enter a whole number." });
  });

  it("takes the Saved mark away when the person saves again", async () => {
    const form = new SaveForm(() => {});
    await form.save(async () => FRESH);
    form.wholeNumbers({ max_files: "x" });
    expect(form.saved).toBe(false);
  });
});
