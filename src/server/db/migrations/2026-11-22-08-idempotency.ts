import type { Kysely } from 'kysely';

// Frozen. Idempotency-Key records (src/server/http/idempotency.ts), shared by every server process on
// one database: a key is claimed by inserting its row, and the response is stored in the transaction
// of the effect. Neither the raw key nor a readable response is kept (id is a hash, response sealed).
export const idempotencyMigration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('claim_id', 'text', (c) => c.notNull())
      .addColumn('status', 'integer')
      .addColumn('response', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('claimed_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('idempotency_keys_expires_at').on('idempotency_keys').column('expires_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('idempotency_keys').execute();
  },
};
