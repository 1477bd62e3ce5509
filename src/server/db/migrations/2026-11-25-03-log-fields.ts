import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { withIdColumn } from '../schema-helpers.ts';

// Frozen. Field definitions of a context for the logs API (logs-api.md §2 "Field"): the type inferred on
// first write or declared, mutability, uniqueness, a description. Order of creation is the id.
export function logFieldsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withIdColumn(db.schema.createTable('context_fields'), dialect)
        .addColumn('context_id', 'integer', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('data_type', 'text', (c) => c.notNull())
        .addColumn('mutable', 'integer', (c) => c.notNull())
        .addColumn('is_unique', 'integer', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('context_fields_name', ['context_id', 'name'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('context_fields').execute();
    },
  };
}
