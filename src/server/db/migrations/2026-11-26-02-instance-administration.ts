import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { BIGINT, withIdColumn } from '../schema-helpers.ts';

// Frozen. Instance administration (issue 19): an administrator can disable an account (users.disabled_at;
// the users table already notifies other servers of changes: 2026-11-25-10-auth-notify), and every credit
// grant is kept with who gave it, to whom, why, and the balance it left. A grant outlives its people and
// organizations (SET NULL; `recipient` and `granted_by` keep their names as they were).
export function instanceAdministrationMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
      await withIdColumn(db.schema.createTable('credit_grants'), dialect)
        .addColumn('granted_by', 'text', (c) => c.notNull())
        .addColumn('granted_by_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('set null'))
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('amount_micros', BIGINT, (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('balance_after_micros', BIGINT, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('credit_grants_created').on('credit_grants').columns(['created_at', 'id']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('credit_grants').execute();
      await db.schema.alterTable('users').dropColumn('disabled_at').execute();
    },
  };
}
