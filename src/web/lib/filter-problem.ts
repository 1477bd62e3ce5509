import { FilterSyntaxError, parseFilter } from '../../shared/logs-filter/index.ts';
import { ApiError } from './api-client.ts';

// Where a filter goes wrong, for the filter box: the shared parser as one types (the server parses with the
// same one), and the server's 422 for what only it knows (a function it does not have).

export interface FilterProblem {
  message: string;
  /** 0-based offset into the filter text; at most the text's length (the end). */
  position: number;
}

/** The problem of a filter as typed, or null when it parses (an empty filter is every log). */
export function filterProblem(text: string): FilterProblem | null {
  try {
    parseFilter(text);
    return null;
  } catch (error) {
    if (error instanceof FilterSyntaxError) return { message: error.message, position: clamp(error.position, text) };
    return { message: error instanceof Error ? error.message : 'This filter cannot be read.', position: 0 };
  }
}

/** The filter problem a 422 of the logs API names (`detail[].ctx.position` under `loc` …filter), or null. */
export function problemFromError(error: unknown, text: string): FilterProblem | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const detail = (error.body as { detail?: unknown } | null)?.detail;
  if (!Array.isArray(detail)) return null;
  for (const item of detail as { type?: string; loc?: unknown[]; msg?: string; ctx?: { position?: unknown } }[]) {
    const where = item.loc ?? [];
    if (item.type !== 'filter_syntax' && !where.includes('filter')) continue;
    const position = typeof item.ctx?.position === 'number' ? item.ctx.position : 0;
    return { message: item.msg ?? error.detail, position: clamp(position, text) };
  }
  return null;
}

const clamp = (position: number, text: string) => Math.max(0, Math.min(position, text.length));

/**
 * The line drawn under the filter (same monospace font) to point at the problem: spaces up to the
 * position, then a caret. Tabs are kept so the caret lines up under them.
 */
export function caretLine(text: string, position: number): string {
  const before = text.slice(0, clamp(position, text)).replace(/[^\t]/g, ' ');
  return `${before}^`;
}

/** Describes the place for screen readers: "at character 7, after “score >”". */
export function positionText(text: string, position: number): string {
  const at = clamp(position, text);
  if (at >= text.length) return 'at the end of the filter';
  const near = text.slice(Math.max(0, at - 12), at).trim();
  return `at character ${at + 1}${near ? `, after “${near}”` : ''}`;
}
