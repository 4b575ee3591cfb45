// Start-up marks for the desktop benchmark (bench/desktop): a named performance mark the first
// time a screen has drawn its data. They cost one timer per name per run and let any tool read,
// with performance.getEntriesByName, when the window became useful.

const marked = new Set<string>();

/** Marks `name` once, after the frame that shows what the caller just rendered. */
export function markFirstDraw(name: string): void {
  if (marked.has(name)) return;
  marked.add(name);
  requestAnimationFrame(() => setTimeout(() => performance.mark(name), 0));
}
