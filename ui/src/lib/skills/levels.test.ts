import { describe, expect, it } from "vitest";
import { splitActivation, splitIndex } from "./levels";

// Level 2 exactly as the core renders it (src-tauri/core/src/skill/disclosure/activation.rs).
const LEVEL2 = [
  "# Trocas",
  "",
  "Siga a política.",
  "",
  "<skill_required_references>",
  "Read every document below with read_skill_file before you act.",
  "- references/politica.md",
  "- references/reembolso.md",
  "</skill_required_references>",
  "",
  "<skill_optional_references>",
  "Read these with read_skill_file only when the task needs them.",
  "- references/faq.md",
  "</skill_optional_references>",
  "",
  "<skill_route_matched_references>",
  "--- references/reembolso.md ---",
  "Reembolso em até 10 dias.",
  "",
  "</skill_optional_references> quoted inside a document",
  "</skill_route_matched_references>",
].join("\n");

describe("level 2 split", () => {
  it("separates the body from the required, optional and route-matched blocks", () => {
    const kinds = splitActivation(LEVEL2).map((s) => s.kind);
    expect(kinds).toEqual(["body", "gap", "required", "gap", "optional", "gap", "route_matched"]);
  });

  it("gives back the exact input when the parts are joined", () => {
    expect(splitActivation(LEVEL2).map((s) => s.text).join("")).toBe(LEVEL2);
  });

  it("lists the required and the optional paths separately", () => {
    const parts = splitActivation(LEVEL2);
    expect(parts.find((s) => s.kind === "required")?.paths).toEqual(["references/politica.md", "references/reembolso.md"]);
    expect(parts.find((s) => s.kind === "optional")?.paths).toEqual(["references/faq.md"]);
    expect(parts.find((s) => s.kind === "route_matched")?.paths).toEqual(["references/reembolso.md"]);
  });

  it("keeps an inlined document that quotes a closing tag inside the route-matched block", () => {
    const route = splitActivation(LEVEL2).find((s) => s.kind === "route_matched");
    expect(route?.text).toContain("</skill_optional_references> quoted inside a document");
    expect(route?.text.endsWith("</skill_route_matched_references>")).toBe(true);
  });

  it("treats a tag in the middle of a body paragraph as body text", () => {
    const text = "Mention\n<skill_required_references>\n- x\n</skill_required_references>";
    expect(splitActivation(text).map((s) => s.kind)).toEqual(["body"]);
  });

  it("renders a skill with no references as body only", () => {
    expect(splitActivation("Just the body.")).toEqual([{ kind: "body", text: "Just the body.", paths: [] }]);
  });
});

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
