import { describe, expect, it } from "vitest";
import { splitIndex } from "./levels";

describe("level 1 split", () => {
  const skillcase = [
    "You can use the skills listed below.",
    "",
    "<available_skills>",
    '<skill name="a-frete" type="prompt" category="vendas">Frete.</skill>',
    '<skill name="cep" type="compute-entry">Consulta CEP.',
    "input: cep(string, required)</skill>",
    '<skill name="z-trocas" type="prompt">Trocas.</skill>',
    "</available_skills>",
  ].join("\n");

  it("finds a skill's element in the skillcase format, second line included", () => {
    const split = splitIndex(skillcase, "skillcase", "cep");
    expect(split?.entry).toBe('<skill name="cep" type="compute-entry">Consulta CEP.\ninput: cep(string, required)</skill>\n');
    expect(split && split.before + split.entry + split.after).toBe(skillcase);
  });

  it("finds a skill's block in the agentskills format", () => {
    const text = [
      "<available_skills>",
      "<skill>",
      "<name>",
      "frete",
      "</name>",
      "<description>",
      "Frete &amp; entrega",
      "</description>",
      "<location>",
      "/s/frete/SKILL.md",
      "</location>",
      "</skill>",
      "</available_skills>",
    ].join("\n");
    const split = splitIndex(text, "agentskills", "frete");
    expect(split?.before).toBe("<available_skills>\n");
    expect(split?.after).toBe("</available_skills>");
  });

  it("returns null for a skill the budget cut out", () => {
    expect(splitIndex(skillcase, "skillcase", "missing")).toBeNull();
  });

  it("does not mistake a name that only starts the same way", () => {
    expect(splitIndex(skillcase, "skillcase", "a")).toBeNull();
  });
});
