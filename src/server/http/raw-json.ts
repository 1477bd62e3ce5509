/** JSON text, as a string or as its UTF-8 bytes (SQLite hands large answers over as bytes). */
export type JsonText = string | Buffer;

/**
 * A response body that is already JSON text (built by the database), sent as is instead of being parsed
 * and serialized again; an idempotent route stores it as is too, so a replay is the same bytes.
 */
export class RawJson {
  constructor(readonly json: JsonText) {}

  text(): string {
    return typeof this.json === 'string' ? this.json : this.json.toString('utf8');
  }

  parse(): unknown {
    return JSON.parse(this.text());
  }
}
