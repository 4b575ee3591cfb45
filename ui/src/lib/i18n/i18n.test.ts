import { describe, expect, it } from "vitest";
import { en } from "./en";
import { ptBR } from "./pt-BR";
import { detectLocale, setLocale, t } from "./index.svelte";

describe("i18n", () => {
  it("picks Portuguese for any pt system language and English otherwise", () => {
    expect(detectLocale(["pt-PT", "en"])).toBe("pt-BR");
    expect(detectLocale(["de-DE", "en-US"])).toBe("en");
    expect(detectLocale([])).toBe("en");
  });

  it("fills placeholders and leaves unknown ones visible", () => {
    setLocale("en");
    expect(t("status.version", { version: "1.2.3" })).toBe("Skillcase 1.2.3");
    expect(t("status.error", { message: "boom" })).toBe("The engine did not answer: boom ({code})");
  });

  it("has a non-empty Portuguese text for every English key, with the same placeholders", () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(ptBR[key], key).toBeTruthy();
      const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(names(ptBR[key]), key).toEqual(names(en[key]));
    }
  });
});
