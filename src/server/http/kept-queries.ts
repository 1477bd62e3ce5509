import { parse } from 'fast-querystring';
import type { z } from 'zod';
import { parseOr422 } from './validation.ts';

/** Query strings kept parsed: at most this many, each of at most this many characters (≤ 1 MB of text). */
const MAX_KEPT_QUERIES = 512;
const MAX_KEPT_QUERY_CHARS = 2048;

type Query = Readonly<Record<string, unknown>>;
const NO_QUERY: Query = Object.freeze({});

function deepFreeze<V>(value: V): V {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * The router's query-string parser (the one Fastify uses by default, fast-querystring), with each query string
 * parsed once: clients send the same ones again and again (a dashboard polling a page, a script paging logs),
 * and for a kept GET /v0/logs parsing the text, then validating it with the operation's schema (below), was ~40
 * µs of its ~220 in a CPU profile. The object is frozen and shared by every request that sends the same text,
 * which is what lets `validQueries` keep the validation by object. Past MAX_KEPT_QUERIES texts the oldest kept
 * is dropped for the new one; a text longer than MAX_KEPT_QUERY_CHARS is parsed each time.
 */
export function keptQueryParser(): (text: string) => Query {
  const kept = new Map<string, Query>();
  return (text) => {
    if (text.length === 0) return NO_QUERY;
    const hit = kept.get(text);
    if (hit !== undefined) return hit;
    const query = deepFreeze(parse(text));
    if (text.length <= MAX_KEPT_QUERY_CHARS) {
      if (kept.size >= MAX_KEPT_QUERIES) kept.delete(kept.keys().next().value!);
      kept.set(text, query);
    }
    return query;
  };
}

/**
 * `make(query)` once per shared query (frozen: the parser's, or a `validQueries` result), kept weakly by that
 * object, so it goes when the parser forgets the text; made each time for any other (it may change). A throw
 * is not kept, nor an undefined result.
 */
export function keptPerQuery<Q, R>(make: (query: Q) => R): (query: Q) => R {
  const kept = new WeakMap<object, R>();
  return (query) => {
    const shared = typeof query === 'object' && query !== null && Object.isFrozen(query);
    const hit = shared ? kept.get(query) : undefined;
    if (hit !== undefined) return hit;
    const made = make(query);
    if (shared) kept.set(query, made);
    return made;
  };
}

/**
 * An operation's validated query: `parseOr422` once per query the router handed out (a 422 is not kept), the
 * result frozen (handlers read it; none may change what the next request gets). One per operation: the same
 * text validates differently.
 */
export const validQueries = <T extends z.ZodType>(schema: T): ((query: unknown) => z.output<T>) =>
  keptPerQuery((query: unknown) => deepFreeze(parseOr422(schema, query, 'query')));
