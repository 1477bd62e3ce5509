import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { withIdColumn } from '../schema-helpers.ts';

// Frozen. The audit log (issue 19): one row per change in a workspace, written in the transaction of the
// change. A row belongs to an organization (organization_id) or to a person's personal workspace
// (user_id), and goes with it. The actor is kept by id and by the name they had when acting (actor_name,
// actor_key_name), so the log still reads after a member or a key is gone: no foreign keys on them.
export function auditEventsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withIdColumn(db.schema.createTable('audit_events'), dialect)
        .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('actor_user_id', 'text')
        .addColumn('actor_key_id', 'integer')
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('actor_key_name', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text')
        .addColumn('target_id', 'text')
        .addColumn('target_label', 'text')
        .addColumn('detail', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // Pages are read newest first within one workspace (keyset on created_at, id).
      await db.schema.createIndex('audit_events_organization').on('audit_events').columns(['organization_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('audit_events_user').on('audit_events').columns(['user_id', 'created_at', 'id']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('audit_events').execute();
    },
  };
}
