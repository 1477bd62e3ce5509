import type { Kysely } from 'kysely';

// Frozen. The API keys page (issue 19): a key has a name its person gave it, a coarse "last used"
// (written at most once a minute, auth/last-used.ts) and, for an organization key made on the page, its
// own permissions (a JSON list; null: the member's role, as the keys issued with a membership have).
// One column per statement: SQLite adds one column per ALTER TABLE.
export const apiKeyNamesMigration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('api_keys').addColumn('name', 'text').execute();
    await db.schema.alterTable('api_keys').addColumn('last_used_at', 'text').execute();
    await db.schema.alterTable('api_keys').addColumn('permissions', 'text').execute();
  },
  async down(db: Kysely<any>) {
    for (const column of ['permissions', 'last_used_at', 'name']) await db.schema.alterTable('api_keys').dropColumn(column).execute();
  },
};
