// The filter language of the logs API (logs-api.md §11), shared by the server (compiled to SQL) and the
// dashboard (errors shown where they are as one types).
export type { ArithOp, CompareOp, FilterNode, NodeOf, Span } from './ast.ts';
export { FilterSyntaxError, FilterUnsupportedError } from './errors.ts';
export { MAX_FILTER_DEPTH, MAX_FILTER_LENGTH, parseFilter } from './parser.ts';
