import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/svelte";
import type { Finding } from "$lib/bindings/Finding";
import { setLocale } from "$lib/i18n/index.svelte";
import FindingsList from "./FindingsList.svelte";

const findings: Finding[] = [
  { code: "body_long", severity: "warning", file: "SKILL.md", line: 210, column: null, message: "The body has 240 lines.", hint: "Move detail into references/." },
  { code: "yaml_colon_space", severity: "error", file: "SKILL.md", line: 3, column: 14, message: "The description contains `: `.", hint: "Wrap it in quotes." },
  { code: "reference_missing", severity: "error", file: "skill.config.yaml", line: 8, column: null, message: "references/x.md does not exist.", hint: null },
];

describe("findings panel", () => {
  beforeEach(() => setLocale("en"));

  it("groups by file, errors first, with counts", () => {
    const { container } = render(FindingsList, { findings });
    const groups = [...container.querySelectorAll("section")].map((s) => s.querySelector("h4")?.textContent?.replace(/\s+/g, " ").trim());
    expect(groups).toEqual(["SKILL.md 1 error 1 warning", "skill.config.yaml 1 error"]);
    const codes = [...container.querySelectorAll("section:first-child li")].map((li) => li.getAttribute("data-code"));
    expect(codes).toEqual(["yaml_colon_space", "body_long"]);
  });

  it("shows code, location, message and hint", () => {
    render(FindingsList, { findings });
    const item = screen.getByText("The description contains `: `.").closest("li")!;
    expect(item.textContent).toContain("yaml_colon_space");
    expect(item.textContent).toContain("SKILL.md:3:14");
    expect(item.textContent).toContain("Fix: Wrap it in quotes.");
  });

  it("jumps to the finding's line when its location is clicked", async () => {
    const onjump = vi.fn();
    render(FindingsList, { findings, onjump });
    await fireEvent.click(screen.getByRole("button", { name: "SKILL.md:3:14" }));
    expect(onjump).toHaveBeenCalledWith(findings[1]);
  });
});
