/**
 * A response body that is already JSON text (built by the database), sent as is instead of being parsed
 * and serialized again; an idempotent route stores it as is too, so a replay is the same bytes.
 */
export class RawJson {
  constructor(readonly text: string) {}
}
