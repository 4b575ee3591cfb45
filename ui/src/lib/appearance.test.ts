import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage, applyTheme } from "./appearance";
import { locale } from "./i18n/index.svelte";

vi.mock("./bindings/commands", () => ({ settingsGet: vi.fn() }));

describe("applying the saved appearance", () => {
  afterEach(() => vi.restoreAllMocks());

  it("follows a Portuguese system when the language is System", () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["pt-PT", "en"]);
    applyLanguage("system");
    expect(locale()).toBe("pt-BR");
    expect(document.documentElement.lang).toBe("pt-BR");
  });

  it("speaks the chosen language whatever the system says", () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["pt-BR"]);
    applyLanguage("en");
    expect(locale()).toBe("en");
  });

  it("sets data-theme for Light and Dark and removes it for System", () => {
    applyTheme("light");
    expect(document.documentElement.dataset.theme).toBe("light");
    applyTheme("dark");
    expect(document.documentElement.dataset.theme).toBe("dark");
    applyTheme("system");
    expect(document.documentElement.hasAttribute("data-theme")).toBe(false);
  });
});
