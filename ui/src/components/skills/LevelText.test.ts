import { beforeEach, describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import type { Activation } from "$lib/bindings/Activation";
import LevelText from "./LevelText.svelte";

// Level 2 as the Rust core sends it: the text and the same text cut into its parts.
const REQUIRED = [
  "<skill_required_references>",
  "Read every document below with read_skill_file before you act.",
  "- references/tabela.md",
  "</skill_required_references>\n",
].join("\n");
const OPTIONAL = [
  "<skill_optional_references>",
  "Read these with read_skill_file only when the task needs them.",
  "- assets/modelo.txt",
  "</skill_optional_references>",
].join("\n");
const ACTIVATION: Activation = {
  text: `Body line.\n\n${REQUIRED}\n${OPTIONAL}`,
  segments: [
    { kind: "body", text: "Body line.\n", paths: [] },
    { kind: "gap", text: "\n", paths: [] },
    { kind: "required", text: REQUIRED, paths: ["references/tabela.md"] },
    { kind: "gap", text: "\n", paths: [] },
    { kind: "optional", text: OPTIONAL, paths: ["assets/modelo.txt"] },
  ],
};

describe("level 2 preview", () => {
  beforeEach(() => setLocale("en"));

  it("shows the agent's text byte for byte", () => {
    render(LevelText, { activation: ACTIVATION });
    expect(screen.getByTestId("level-text").textContent).toBe(ACTIVATION.text);
  });

  it("marks the required and the optional block apart, each with its label", () => {
    const { container } = render(LevelText, { activation: ACTIVATION });
    const required = container.querySelector('[data-block="required"]');
    const optional = container.querySelector('[data-block="optional"]');
    expect(required?.textContent).toContain("- references/tabela.md");
    expect(required?.textContent).not.toContain("assets/modelo.txt");
    expect(optional?.textContent).toContain("- assets/modelo.txt");
    expect(required?.getAttribute("data-label")).toBe("Required — read before acting");
    expect(optional?.getAttribute("data-label")).toBe("Optional — read when needed");
  });

  it("labels the blocks in Portuguese too", () => {
    setLocale("pt-BR");
    const { container } = render(LevelText, { activation: ACTIVATION });
    expect(container.querySelector('[data-block="required"]')?.getAttribute("data-label")).toBe(
      "Obrigatórias — ler antes de agir",
    );
  });
});
