import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { BIGINT, withIdColumn } from '../schema-helpers.ts';

// Frozen once landed. Assistants, cloned voices and uploaded files, per scope (organization_id NULL =
// personal). user_id is "set null" rather than cascade: a personal user's rows are removed by the
// assistants module's user-deletion hook (which also removes their stored files), while an
// organization's assistants outlive the member who created them.
export function assistantsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withIdColumn(db.schema.createTable('assistants'), dialect)
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade'))
        .addColumn('first_name', 'text')
        .addColumn('surname', 'text')
        .addColumn('age', 'integer')
        .addColumn('weekly_limit', 'double precision')
        .addColumn('max_parallel', 'integer')
        .addColumn('about', 'text')
        .addColumn('phone', 'text')
        .addColumn('email', 'text')
        .addColumn('nationality', 'text')
        .addColumn('country', 'text')
        .addColumn('phone_country', 'text')
        .addColumn('profile_photo', 'text')
        .addColumn('profile_video', 'text')
        .addColumn('voice_id', 'text')
        .addColumn('voice_provider', 'text')
        .addColumn('timezone', 'text')
        .addColumn('region', 'text')
        .addColumn('desktop_url', 'text')
        .addColumn('user_local_desktop', 'text')
        .addColumn('desktop_mode', 'text')
        .addColumn('user_desktop_id', 'integer')
        .addColumn('user_desktop_filesys_sync', 'integer')
        .addColumn('is_local', 'integer')
        .addColumn('monthly_spending_cap_micros', BIGINT)
        .addColumn('deploy_env', 'text')
        .addColumn('user_phone', 'text')
        .addColumn('user_whatsapp_number', 'text')
        .addColumn('pre_hire_chat', 'text')
        .addColumn('create_infra', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('assistants_user').on('assistants').columns(['user_id', 'organization_id']).execute();
      await db.schema.createIndex('assistants_org').on('assistants').column('organization_id').execute();

      await withIdColumn(db.schema.createTable('voices'), dialect)
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade'))
        .addColumn('voice_id', 'text', (c) => c.notNull())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('gender', 'text')
        .addColumn('language', 'text')
        .addColumn('sample_key', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('voices_provider_voice', ['provider', 'voice_id'])
        .execute();
      await db.schema.createIndex('voices_user').on('voices').columns(['user_id', 'organization_id']).execute();
      await db.schema.createIndex('voices_org').on('voices').column('organization_id').execute();

      // Every stored upload, so an account's files can be found and removed with it.
      await db.schema
        .createTable('stored_files')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', BIGINT, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('stored_files_user').on('stored_files').columns(['user_id', 'organization_id']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('stored_files').execute();
      await db.schema.dropTable('voices').execute();
      await db.schema.dropTable('assistants').execute();
    },
  };
}
