import { beforeEach, describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import LevelText from "./LevelText.svelte";

const TEXT = [
  "Body line.",
  "",
  "<skill_required_references>",
  "Read every document below with read_skill_file before you act.",
  "- references/tabela.md",
  "</skill_required_references>",
  "",
  "<skill_optional_references>",
  "Read these with read_skill_file only when the task needs them.",
  "- assets/modelo.txt",
  "</skill_optional_references>",
].join("\n");

describe("level 2 preview", () => {
  beforeEach(() => setLocale("en"));

  it("shows the agent's text byte for byte", () => {
    render(LevelText, { text: TEXT });
    expect(screen.getByTestId("level-text").textContent).toBe(TEXT);
  });

  it("marks the required and the optional block apart, each with its label", () => {
    const { container } = render(LevelText, { text: TEXT });
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
    const { container } = render(LevelText, { text: TEXT });
    expect(container.querySelector('[data-block="required"]')?.getAttribute("data-label")).toBe(
      "Obrigatórias — ler antes de agir",
    );
  });
});
