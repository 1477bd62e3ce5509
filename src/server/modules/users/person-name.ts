/** A user's name as one line from its stored parts, blank parts left out; null when both are blank. */
export function personName(first: string | null, last: string | null): string | null {
  return [first, last].filter((s) => s && s.trim()).join(' ') || null;
}

/** A name written as one line, split into the stored parts: the first word, and the rest. */
export function splitName(name: string | null | undefined): { firstName: string | null; lastName: string | null } {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  return { firstName: parts[0] ?? null, lastName: parts.slice(1).join(' ') || null };
}
