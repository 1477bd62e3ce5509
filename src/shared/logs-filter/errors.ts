/**
 * A filter that cannot be parsed (or compiled): where (0-based offset into the filter text) and what
 * was expected there. The server answers it as a 422; the dashboard underlines the position.
 */
export class FilterSyntaxError extends Error {
  constructor(
    readonly position: number,
    readonly expected: string,
    message = `Invalid filter expression: expected ${expected} at position ${position}.`,
  ) {
    super(message);
    this.name = 'FilterSyntaxError';
  }
}

/** A well-formed filter that uses something this server does not evaluate (a function, a construct). */
export class FilterUnsupportedError extends FilterSyntaxError {
  constructor(position: number, what: string) {
    super(position, what, `Invalid filter expression: ${what} is not supported (at position ${position}).`);
    this.name = 'FilterUnsupportedError';
  }
}
