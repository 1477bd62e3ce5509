// Hand-written: no Fastify plugin stores the response in the transaction of the effect, which makes a replay exact (they cache in Redis or memory).
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.ts';
import type { Conn, Db, Tx } from '../db/connection.ts';
import type { Deps } from '../deps.ts';
import { HttpError, invalid } from './errors.ts';
import { RawJson } from './raw-json.ts';
import { canonicalJson } from '../canonical-json.ts';

/**
 * Idempotency-Key on side-effecting POSTs (routes declare `idempotent: true`).
 *
 * A key is claimed by inserting an `in_flight` row; the handler stores its response with `record(tx, …)`
 * inside the transaction of its effect, so "effect committed" and "response stored" are one fact. A
 * repeat with the same key replays the stored response; all state is in the database, so any number of
 * server processes on one PostgreSQL agree. Only 2xx responses are stored: a failed request changed
 * nothing (each of these handlers is one transaction), so its claim is released and the key may be
 * retried (after topping up credits, say) instead of being stuck with the error for a day.
 */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a key and its response are kept; after that the key is free again. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * An in-flight claim older than this is taken over by a repeat of the request (its server may have
 * died). Safe even if the first request is only slow: it can no longer record, so its transaction
 * rolls back and only one effect remains.
 */
export const IN_FLIGHT_LEASE_MS = 60 * 1000;
const CLEANUP_EVERY_MS = 60 * 1000;

const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;
const headerIssue = (msg: string) => invalid(['header', IDEMPOTENCY_HEADER], msg);

/** The Idempotency-Key of a request: undefined when absent, 422 when malformed or repeated. */
export function idempotencyKeyOf(req: FastifyRequest): string | undefined {
  const raw = req.raw.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === 'idempotency-key') count += 1;
  if (count === 0) return undefined;
  if (count > 1) throw headerIssue(`Send one ${IDEMPOTENCY_HEADER} header, not ${count}.`);
  const value = req.headers['idempotency-key'];
  if (typeof value !== 'string' || !KEY_PATTERN.test(value)) {
    throw headerIssue(`${IDEMPOTENCY_HEADER} must be 1–255 printable ASCII characters (a UUID is a good choice).`);
  }
  return value;
}

export const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('base64url');

/** What a JSON request asks for: its body and query, whatever the order of their keys. */
export function jsonFingerprint(req: FastifyRequest): string {
  return sha256(canonicalJson({ body: req.body ?? null, query: req.query ?? {} }));
}

/** What a handler may do about the request's Idempotency-Key; every method is a no-op without one. */
export interface IdempotencyHooks {
  /**
   * Multipart routes only (JSON routes are claimed before the handler): claims the key once the
   * upload's fingerprint is known. True when a stored response was sent instead (return at once).
   */
  claim(fingerprint: string): Promise<boolean>;
  /**
   * Stores the response (an object, or RawJson text kept as is) in `tx`, the transaction of the effect
   * (the last write before it commits).
   */
  record(tx: Conn, body: unknown): Promise<void>;
  /** Runs `work` in a transaction and records what it returns as the response, in that transaction. */
  transaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T>;
}

export const NO_IDEMPOTENCY: IdempotencyHooks = {
  claim: async () => false,
  record: async () => {},
  transaction: (db, work) => db.transaction().execute(work),
};

function seal(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

function unseal(key: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

const lastCleanup = new WeakMap<Db, number>();

/** One request that carries an Idempotency-Key. */
export class IdempotentRequest implements IdempotencyHooks {
  private readonly id: string;
  private readonly sealKey: Buffer;
  private claimId: string | null = null;
  /** The response was stored (in a transaction that may still roll back: release() checks the row). */
  recorded = false;

  constructor(
    private readonly deps: Deps,
    private readonly reply: FastifyReply,
    private readonly status: number,
    principal: Principal,
    /** The operation and its path parameters: one key is independent per operation and target. */
    target: string,
    key: string,
  ) {
    // Keys are per caller: the user in the key's scope (a personal and an org key of one user differ).
    const parts = [principal.userId, String(principal.organizationId ?? 'personal'), target, key].join('\0');
    this.id = createHash('sha256').update(`roster-idempotency-id\0${parts}`).digest('base64url');
    this.sealKey = createHash('sha256').update(`roster-idempotency-response\0${parts}`).digest();
  }

  get claimed(): boolean {
    return this.claimId !== null;
  }

  /** Claims the key, or returns the stored response to replay; 422 for another request, 409 in flight. */
  async acquire(fingerprint: string): Promise<{ status: number; body: string } | null> {
    if (this.claimId) throw new Error('Idempotency key claimed twice in one request');
    const { db } = this.deps;
    for (let attempt = 0; attempt < 5; attempt++) {
      const now = this.deps.now();
      await this.cleanup(now);
      const claimId = randomUUID();
      const stamp = now.toISOString();
      const fresh = {
        fingerprint,
        state: 'in_flight' as const,
        claim_id: claimId,
        status: null,
        response: null,
        created_at: stamp,
        claimed_at: stamp,
        expires_at: new Date(now.getTime() + KEY_LIFETIME_MS).toISOString(),
      };
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({ id: this.id, ...fresh })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) {
        this.claimId = claimId;
        return null;
      }
      const row = await db.selectFrom('idempotency_keys').selectAll().where('id', '=', this.id).executeTakeFirst();
      if (!row) continue; // expired and cleaned up meanwhile: insert again
      const expired = row.expires_at <= stamp;
      if (!expired && row.fingerprint !== fingerprint) {
        throw invalid(
          ['header', IDEMPOTENCY_HEADER],
          `This ${IDEMPOTENCY_HEADER} was already used for a different request (another body or file) in the last 24 hours. Use a new key for a new request.`,
          'idempotency_key_reused',
        );
      }
      const abandoned = row.state === 'in_flight' && row.claimed_at <= new Date(now.getTime() - IN_FLIGHT_LEASE_MS).toISOString();
      if (expired || abandoned) {
        // Taken over only if nobody else took it (or completed it) since we read it.
        const took = await db
          .updateTable('idempotency_keys')
          .set(fresh)
          .where('id', '=', this.id)
          .where('claim_id', '=', row.claim_id)
          .where('state', '=', row.state)
          .executeTakeFirst();
        if (Number(took.numUpdatedRows) === 1) {
          this.claimId = claimId;
          return null;
        }
        continue;
      }
      if (row.state === 'in_flight') break;
      return { status: row.status ?? 200, body: unseal(this.sealKey, row.response ?? '') };
    }
    throw new HttpError(409, `A request with this ${IDEMPOTENCY_HEADER} is still in progress. Retry after it has finished to get its response.`, { 'Retry-After': '1' });
  }

  async claim(fingerprint: string): Promise<boolean> {
    const stored = await this.acquire(fingerprint);
    if (!stored) return false;
    sendReplay(this.reply, stored);
    return true;
  }

  async record(tx: Conn, body: unknown): Promise<void> {
    if (!this.claimId) throw new Error('Idempotent response recorded before the key was claimed');
    const result = await tx
      .updateTable('idempotency_keys')
      .set({ state: 'done', status: this.status, response: seal(this.sealKey, body instanceof RawJson ? body.text() : JSON.stringify(body)) })
      .where('id', '=', this.id)
      .where('claim_id', '=', this.claimId)
      .where('state', '=', 'in_flight')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) {
      // A repeat took the claim over (this request outlived the lease): it owns the effect, this
      // transaction rolls back.
      throw new HttpError(
        409,
        `This request took too long and a repeat with the same ${IDEMPOTENCY_HEADER} took over; nothing was changed by this one. Repeat it to get the result.`,
      );
    }
    this.recorded = true;
  }

  transaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
    return db.transaction().execute(async (tx) => {
      const result = await work(tx);
      await this.record(tx, result);
      return result;
    });
  }

  /** After a failure: frees the key so the request can be retried (a completed row stays). */
  async release(): Promise<void> {
    if (!this.claimId) return;
    await this.deps.db.deleteFrom('idempotency_keys').where('id', '=', this.id).where('claim_id', '=', this.claimId).where('state', '=', 'in_flight').execute();
  }

  /** Expired rows count as absent anyway; they are deleted now and then, by whichever server gets there. */
  private async cleanup(now: Date): Promise<void> {
    const { db } = this.deps;
    const last = lastCleanup.get(db) ?? 0;
    if (now.getTime() - last < CLEANUP_EVERY_MS && now.getTime() >= last) return;
    lastCleanup.set(db, now.getTime());
    await db.deleteFrom('idempotency_keys').where('expires_at', '<', now.toISOString()).execute();
  }
}

export function sendReplay(reply: FastifyReply, stored: { status: number; body: string }): FastifyReply {
  return reply.code(stored.status).header(REPLAYED_HEADER, 'true').type('application/json; charset=utf-8').send(stored.body);
}

/** OpenAPI: the request header of idempotent operations. */
export const IDEMPOTENCY_HEADER_DOC = {
  name: IDEMPOTENCY_HEADER,
  description:
    'Optional; 1–255 printable ASCII characters (use a UUID). Repeating the request with the same key within 24 h ' +
    `replays the first response (with \`${REPLAYED_HEADER}: true\`) instead of acting twice. The same key with a different ` +
    'body → 422; while the first is still running → 409 + Retry-After. Keys are per caller (user and key scope) and ' +
    'operation. Only successful responses are stored: after an error the same key may be retried.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
};
