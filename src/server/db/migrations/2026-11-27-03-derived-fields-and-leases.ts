import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { withIdColumn } from '../schema-helpers.ts';

// Frozen. The logs API's derived columns (logs-api.md §4.9): a context's key computed from an equation
// (kept as given, parsed again when used), recomputed for new logs on request. And sync leases (§9): a
// named lease of a project held by one holder until expires_at.
export function derivedFieldsAndLeasesMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withIdColumn(db.schema.createTable('log_derived_fields'), dialect)
        .addColumn('context_id', 'integer', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('equation', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('log_derived_fields_key', ['context_id', 'key'])
        .execute();
      await withIdColumn(db.schema.createTable('sync_leases'), dialect)
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('lease_key', 'text', (c) => c.notNull())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('sync_leases_key', ['project_id', 'lease_key'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('sync_leases').execute();
      await db.schema.dropTable('log_derived_fields').execute();
    },
  };
}
