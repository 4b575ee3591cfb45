// Windowing for the skill list: only the rows in view (plus a margin) exist in the DOM, and rows
// are fetched from the backend a page at a time, so 10,000 skills scroll like 10.

/** The rows to render for a viewport: `[start, end)` plus the spacer heights around them. */
export type RowWindow = { start: number; end: number; padTop: number; padBottom: number };

/** Which rows of `total` (each `rowHeight` px) are visible at `scrollTop`, with `overscan` extra rows each side. */
export function rowWindow(scrollTop: number, viewport: number, rowHeight: number, total: number, overscan = 6): RowWindow {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const start = Math.max(0, Math.min(total, first - overscan));
  const end = Math.min(total, first + Math.ceil(viewport / rowHeight) + overscan);
  return { start, end: Math.max(start, end), padTop: start * rowHeight, padBottom: (total - Math.max(start, end)) * rowHeight };
}

/** The scrollTop that brings row `index` fully into view, or null when it already is. */
export function scrollToRow(index: number, scrollTop: number, viewport: number, rowHeight: number): number | null {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewport) return top + rowHeight - viewport;
  return null;
}

/** One page of a list as the backend returns it. */
export type Page<T> = { total: number; items: T[] };

/**
 * Caches rows by index and fetches the pages a window needs, each page at most once at a time.
 * `reset` drops everything (a new search or filter); `refresh` keeps showing the rows it has
 * while it re-fetches them (a change event), so a live update never blanks the list. Both bump
 * the generation, so answers to requests made before are ignored.
 */
export class PagedRows<T> {
  readonly pageSize: number;
  total: number | null = null;
  private rows = new Map<number, T>();
  private loaded = new Set<number>();
  private inFlight = new Set<number>();
  private generation = 0;

  constructor(
    private readonly fetchPage: (offset: number, limit: number) => Promise<Page<T>>,
    private readonly onChange: () => void,
    pageSize = 100,
  ) {
    this.pageSize = pageSize;
  }

  /** The row at `index`, or undefined while its page is loading. */
  get(index: number): T | undefined {
    return this.rows.get(index);
  }

  /** Fetches every page that overlaps `[start, end)` and is neither loaded nor in flight. */
  ensure(start: number, end: number): Promise<void> {
    const wanted: Promise<void>[] = [];
    const last = Math.max(start, end - 1);
    for (let page = Math.floor(start / this.pageSize); page <= Math.floor(last / this.pageSize); page++) {
      if (this.loaded.has(page) || this.inFlight.has(page)) continue;
      if (this.total !== null && page * this.pageSize >= this.total && page > 0) continue;
      wanted.push(this.load(page));
    }
    return Promise.all(wanted).then(() => undefined);
  }

  /** Forgets every row; the next `ensure` fetches afresh. */
  reset(): void {
    this.refresh();
    this.rows.clear();
    this.total = null;
  }

  /** Marks every page out of date but keeps its rows on screen until the new ones arrive. */
  refresh(): void {
    this.generation++;
    this.loaded.clear();
    this.inFlight.clear();
  }

  private async load(page: number): Promise<void> {
    const generation = this.generation;
    this.inFlight.add(page);
    try {
      const result = await this.fetchPage(page * this.pageSize, this.pageSize);
      if (generation !== this.generation) return;
      this.total = result.total;
      result.items.forEach((item, i) => this.rows.set(page * this.pageSize + i, item));
      for (const index of this.rows.keys()) if (index >= result.total) this.rows.delete(index);
      this.loaded.add(page);
      this.onChange();
    } finally {
      if (generation === this.generation) this.inFlight.delete(page);
    }
  }
}
