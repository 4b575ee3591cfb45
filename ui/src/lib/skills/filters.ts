// The library's search and filters: one value object, compared and summarised here so the list,
// the filter bar and the tests agree on what "the same search" means.
import type { SkillType } from "../bindings/SkillType";

export type OriginFilter = "all" | "local" | "catalog" | "overridden";
export type ValidityFilter = "all" | "valid" | "warnings" | "invalid";

export type SkillFilter = {
  /** Free text, matched against name and description. */
  query: string;
  origin: OriginFilter;
  type: "all" | SkillType;
  validity: ValidityFilter;
};

const ORIGINS: OriginFilter[] = ["all", "local", "catalog", "overridden"];
const TYPES: SkillFilter["type"][] = ["all", "prompt", "compute-entry", "compute-toolkit"];
const VALIDITIES: ValidityFilter[] = ["all", "valid", "warnings", "invalid"];

/** The three select filters, in the order the filter bar shows them, with their choices. */
export const SELECTS = [
  { field: "origin", choices: ORIGINS },
  { field: "type", choices: TYPES },
  { field: "validity", choices: VALIDITIES },
] as const;

export const NO_FILTER: SkillFilter = { query: "", origin: "all", type: "all", validity: "all" };

/** The filter with the query trimmed and whitespace runs collapsed: what is sent and compared. */
export function normalise(filter: SkillFilter): SkillFilter {
  return { ...filter, query: filter.query.trim().replace(/\s+/g, " ") };
}

/** True when two filters ask for the same rows (so typing a trailing space fetches nothing). */
export function sameFilter(a: SkillFilter, b: SkillFilter): boolean {
  const x = normalise(a);
  const y = normalise(b);
  return x.query === y.query && x.origin === y.origin && x.type === y.type && x.validity === y.validity;
}

/** How many filters besides the query are narrowing the list (for the "clear filters" button). */
export function activeFilters(filter: SkillFilter): number {
  return Number(filter.origin !== "all") + Number(filter.type !== "all") + Number(filter.validity !== "all");
}

/**
 * Calls `run` with the latest value once `ms` have passed without a new one: the search field
 * fetches after typing pauses, not on every key.
 */
export function debounce<A extends unknown[]>(run: (...args: A) => void, ms: number): ((...args: A) => void) & { cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A) => {
    clearTimeout(timer);
    timer = setTimeout(() => run(...args), ms);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}
