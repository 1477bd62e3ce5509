import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { BIGINT, withIdColumn } from '../schema-helpers.ts';
import { SYSTEM_ROLES } from '../../../shared/roles.ts';

// Frozen: never edit a landed migration; add a new dated file instead.
export function coreMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.unique())
        .addColumn('first_name', 'text')
        .addColumn('last_name', 'text')
        .addColumn('job_title', 'text')
        .addColumn('bio', 'text')
        .addColumn('timezone', 'text')
        .addColumn('phone_number', 'text')
        .addColumn('whatsapp_number', 'text')
        .addColumn('discord_id', 'text')
        .addColumn('image', 'text')
        .addColumn('account_type', 'text')
        .addColumn('business_info', 'text')
        .addColumn('monthly_spending_cap_micros', BIGINT)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await withIdColumn(db.schema.createTable('organizations'), dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('roles')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('permissions', 'text', (c) => c.notNull())
        .execute();

      await withIdColumn(db.schema.createTable('memberships'), dialect)
        .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('memberships_org_user', ['organization_id', 'user_id'])
        .execute();
      await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();

      await withIdColumn(db.schema.createTable('api_keys'), dialect)
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('personal', 'organization')`))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade'))
        .addColumn('membership_id', 'integer', (c) => c.references('memberships.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();

      await withIdColumn(db.schema.createTable('billing_accounts'), dialect)
        .addColumn('user_id', 'text', (c) => c.unique().references('users.id').onDelete('cascade'))
        .addColumn('organization_id', 'integer', (c) => c.unique().references('organizations.id').onDelete('cascade'))
        .addColumn('credits_micros', BIGINT, (c) =>
          c
            .notNull()
            .defaultTo(0)
            .check(sql`credits_micros >= 0`),
        )
        .execute();

      await withIdColumn(db.schema.createTable('credit_ledger'), dialect)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('billing_accounts.id').onDelete('cascade'))
        .addColumn('delta_micros', BIGINT, (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('reference', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('credit_ledger_account').on('credit_ledger').column('account_id').execute();

      // Permissions are stored for reporting; the source of truth is SYSTEM_ROLES in src/shared/roles.ts.
      await db
        .insertInto('roles')
        .values(SYSTEM_ROLES.map((r) => ({ id: r.id, name: r.name, permissions: JSON.stringify(r.permissions) })))
        .execute();
    },
  };
}
