import { describe, expect, it } from "vitest";
import { setLocale } from "../i18n/index.svelte";
import { plural } from "./plural";

describe("counts", () => {
  it("uses the singular for one and groups thousands the reader's way", () => {
    setLocale("en");
    expect(plural(1, "skills.list.count.one", "skills.list.count.other")).toBe("1 skill");
    expect(plural(10011, "skills.list.count.one", "skills.list.count.other")).toBe("10,011 skills");
    setLocale("pt-BR");
    expect(plural(10011, "skills.validity.errors.one", "skills.validity.errors.other")).toBe("10.011 erros");
  });
});
