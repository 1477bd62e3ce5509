import type { ForeignKey } from '../../../shared/projects.ts';

// Foreign keys of a context as the platform's clients read them back (logs-api.md §6): each one as given,
// with `is_nested` (the name has `.` or `[`) and its `path_segments`. Kept, not enforced.

export interface ForeignKeyGiven {
  name: string;
  references: string;
  on_delete?: string | undefined;
  on_update?: string | undefined;
  default?: unknown;
}

/** `images[*].image_id` → images (array, wildcard), then image_id; `items[0].id` → items (array, index 0), then id. */
export function pathSegments(name: string): ForeignKey['path_segments'] {
  return name.split('.').map((part) => {
    const field = part.replace(/\[.*$/, '');
    const brackets = [...part.matchAll(/\[(\*|\d+)\]/g)].map((m) => m[1]!);
    const index = brackets.find((b) => b !== '*');
    return { name: field, is_array: brackets.length > 0, is_wildcard: brackets.includes('*'), array_index: index === undefined ? null : Number(index) };
  });
}

export function foreignKeysAsAnswered(given: ForeignKeyGiven[] | undefined): ForeignKey[] {
  return (given ?? []).map((fk) => ({
    name: fk.name,
    references: fk.references,
    on_delete: fk.on_delete ?? null,
    on_update: fk.on_update ?? null,
    ...(fk.default !== undefined ? { default: fk.default } : {}),
    is_nested: /[.[]/.test(fk.name),
    path_segments: pathSegments(fk.name),
  }));
}
