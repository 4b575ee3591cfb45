import { beforeEach, describe, expect, it, vi } from "vitest";
import { render } from "@testing-library/svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import type { CaseFilter } from "$lib/bindings/CaseFilter";
import type { CasePage } from "$lib/bindings/CasePage";
import CaseList from "./CaseList.svelte";
import { aCase } from "../../test/cases";

const casesList = vi.fn();
vi.mock("$lib/bindings/commands", () => ({
  casesList: (...args: unknown[]) => casesList(...args),
}));

function page(titles: string[]): CasePage {
  return {
    items: titles.map((title, i) => ({
      case: aCase({ id: `c${i}`, number: BigInt(1001 + i), title }),
      latest_delivery: null,
      unread: false,
      promise: null,
    })),
    total: BigInt(titles.length),
    offset: 0,
    limit: 100,
    counts: { waiting_on_you: 0n, waiting_on_customer: 0n, closed: 0n, unread: 0n },
  };
}

const props = (filter: CaseFilter) => ({
  filter,
  revision: 0,
  selected: 0,
  picked: new Set<string>(),
  emptyKey: "cases.list.empty.waiting_on_you" as const,
  onselect: () => {},
  onopen: () => {},
  ontoggle: () => {},
});

beforeEach(() => {
  setLocale("en");
  casesList.mockReset();
});

describe("the inbox list while a person types a search", () => {
  it("asks for the newest search at once, without waiting for the older one still running", async () => {
    let stopOlder: (reason: unknown) => void = () => {};
    casesList.mockImplementationOnce(() => new Promise((_, reject) => (stopOlder = reject)));
    casesList.mockImplementationOnce(async () => page(["Refund for order 4242"]));
    const list = render(CaseList, props({ search: "4", offset: 0, limit: 0 }));
    await vi.waitFor(() => expect(casesList).toHaveBeenCalledTimes(1));

    await list.rerender(props({ search: "4242", offset: 0, limit: 0 }));
    await vi.waitFor(() => expect(casesList).toHaveBeenCalledTimes(2));
    expect(casesList.mock.calls[1][0].filter.search).toBe("4242");
    stopOlder({ code: "superseded", message: "a newer request of the same kind replaced this one" });

    await vi.waitFor(() => expect(document.body.textContent).toContain("Refund for order 4242"));
  });
});

describe("the inbox list after a case event", () => {
  it("asks again for the newest page when an older request, arriving later, stopped it", async () => {
    let finishOlder: (value: CasePage) => void = () => {};
    casesList.mockImplementationOnce(() => new Promise((resolve) => (finishOlder = resolve)));
    casesList.mockImplementationOnce(async () => {
      throw { code: "superseded", message: "a newer request of the same kind replaced this one" };
    });
    casesList.mockImplementationOnce(async () => page([]));
    const filter: CaseFilter = { offset: 0, limit: 0 };
    const list = render(CaseList, props(filter));
    await vi.waitFor(() => expect(casesList).toHaveBeenCalledTimes(1));

    await list.rerender({ ...props(filter), revision: 1 });
    await vi.waitFor(() => expect(casesList).toHaveBeenCalledTimes(3));
    finishOlder(page(["Cancelled a moment ago"]));

    await vi.waitFor(() => expect(document.body.textContent).toContain("Nothing waits on you"));
    expect(document.body.textContent).not.toContain("Cancelled a moment ago");
  });
});
