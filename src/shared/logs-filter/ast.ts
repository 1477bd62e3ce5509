// The tree a filter parses into. Every node carries the span of text it came from (0-based, end
// exclusive) so that later stages (the SQL compiler, the dashboard) can point at the offending part.

export interface Span {
  start: number;
  end: number;
}

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in' | 'is' | 'is not';
export type ArithOp = '+' | '-' | '*' | '/' | '//' | '%' | '**';

export type FilterNode = Span &
  (
    | { type: 'field'; name: string }
    | { type: 'literal'; value: number | string | boolean | null }
    | { type: 'list'; items: FilterNode[] }
    | { type: 'dict'; entries: [FilterNode, FilterNode][] }
    | { type: 'not'; operand: FilterNode }
    | { type: 'negate'; op: '-' | '+'; operand: FilterNode }
    | { type: 'bool'; op: 'and' | 'or'; operands: FilterNode[] }
    | { type: 'compare'; left: FilterNode; ops: CompareOp[]; comparators: FilterNode[] }
    | { type: 'arith'; op: ArithOp; left: FilterNode; right: FilterNode }
    | { type: 'index'; value: FilterNode; index: FilterNode }
    | { type: 'slice'; value: FilterNode; lower: FilterNode | null; upper: FilterNode | null }
    | { type: 'attribute'; value: FilterNode; name: string }
    | { type: 'call'; name: string; args: FilterNode[] }
    | { type: 'method'; value: FilterNode; name: string; args: FilterNode[] }
  );

export type NodeOf<T extends FilterNode['type']> = Extract<FilterNode, { type: T }>;
