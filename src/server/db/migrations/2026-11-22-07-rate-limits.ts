import type { Kysely } from 'kysely';
import { BIGINT } from '../schema-helpers.ts';

// Frozen. Rate-limit counters shared by every server process on one PostgreSQL database (a SQLite
// deployment is one process and counts in memory; the table exists there too, unused).
export const rateLimitsMigration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('rate_limit_hits')
      .addColumn('bucket', 'text', (c) => c.notNull())
      .addColumn('window_start', BIGINT, (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('rate_limit_hits_pk', ['bucket', 'window_start'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('rate_limit_hits').execute();
  },
};
