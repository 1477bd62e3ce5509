import type { Kysely } from 'kysely';

// Frozen. What the platform's clients send when they create a context and Roster kept nowhere
// (logs-api.md §6): the foreign keys (JSON array, as answered: with `is_nested` and `path_segments`), and
// the owner (`owner_scope`, `owner_id`; null when unset).
export const contextForeignKeysMigration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('contexts')
      .addColumn('foreign_keys', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema.alterTable('contexts').addColumn('owner_scope', 'text').execute();
    await db.schema.alterTable('contexts').addColumn('owner_id', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('contexts').dropColumn('owner_id').execute();
    await db.schema.alterTable('contexts').dropColumn('owner_scope').execute();
    await db.schema.alterTable('contexts').dropColumn('foreign_keys').execute();
  },
};
