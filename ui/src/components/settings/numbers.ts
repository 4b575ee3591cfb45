// Parsing what people type into number fields: digits only, no silent rounding.

/** The whole number in `text` (surrounding spaces ignored), or `null` when it is not one. */
export function wholeNumber(text: string): number | null {
  const trimmed = text.trim();
  return /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : null;
}
