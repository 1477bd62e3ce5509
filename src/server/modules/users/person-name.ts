/** A user's name as one line from its stored parts, blank parts left out; null when both are blank. */
export function personName(first: string | null, last: string | null): string | null {
  return [first, last].filter((s) => s && s.trim()).join(' ') || null;
}
