import type { Kysely } from 'kysely';

// Frozen. A tile shows the logs of its context that match its filter (the logs API's filter language,
// issue 20 item 18 and issue 23): null shows every log, as before.
export const tileFiltersMigration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('tiles').addColumn('filter', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('tiles').dropColumn('filter').execute();
  },
};
