// Reading an agent client's skill listing: the line of one skill (so the preview can mark it)
// and how many skills the budget kept, shortened or left out.
import type { ListingEntry } from "../bindings/ListingEntry";

/** The listing split around the line of skill `name` (`- name` or `- name: …`); null when the
 * skill has no line. */
export function markedLine(text: string, name: string): { before: string; line: string; after: string } | null {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l === `- ${name}` || l.startsWith(`- ${name}:`) || l.startsWith(`- ${name} (file:`));
  if (at < 0) return null;
  const before = lines.slice(0, at).join("\n");
  const after = lines.slice(at + 1).join("\n");
  return { before: before ? `${before}\n` : "", line: lines[at], after: after ? `\n${after}` : "" };
}

/** Skills per fate in a listing. */
export function fateCounts(entries: ListingEntry[]): { kept: number; shortened: number; left: number; hidden: number } {
  const count = (fate: ListingEntry["fate"]) => entries.filter((e) => e.fate === fate).length;
  return { kept: count("kept"), shortened: count("shortened"), left: count("left_out"), hidden: count("not_listed") };
}
