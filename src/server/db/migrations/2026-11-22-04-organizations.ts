import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { withIdColumn } from '../schema-helpers.ts';

// Frozen: never edit a landed migration; add a new dated file instead.
export function organizationsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('invites')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('invited_by_user_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        // "<organization_id>:<email>" while pending, NULL afterwards: one pending invite per address (portable
        // partial uniqueness; NULLs never clash).
        .addColumn('pending_key', 'text', (c) => c.unique())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('invites_org').on('invites').columns(['organization_id', 'status']).execute();
      await db.schema.createIndex('invites_email').on('invites').columns(['email', 'status']).execute();

      await withIdColumn(db.schema.createTable('mail_outbox'), dialect)
        .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('set null'))
        .addColumn('reference', 'text')
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text_body', 'text', (c) => c.notNull())
        .addColumn('html_body', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('mail_outbox_org').on('mail_outbox').columns(['organization_id', 'created_at']).execute();
    },
  };
}
