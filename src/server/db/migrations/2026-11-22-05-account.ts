import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { withIdColumn } from '../schema-helpers.ts';

// Frozen. Custom model endpoints, per scope like projects (organization_id NULL = personal).
export function accountMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withIdColumn(db.schema.createTable('custom_endpoints'), dialect)
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade'))
        // Uniqueness per scope: personal rows use scope_key 'u:<user>', org rows 'o:<org>' (NULLs would not clash).
        .addColumn('scope_key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('model_arg', 'text', (c) => c.notNull())
        .addColumn('key_name', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('custom_endpoints_scope_name', ['scope_key', 'name'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('custom_endpoints').execute();
    },
  };
}
