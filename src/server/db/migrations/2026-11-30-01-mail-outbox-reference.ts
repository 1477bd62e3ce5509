import { sql, type Kysely } from 'kysely';

// Frozen. Mail is looked up by what it is about (`reference`): a re-invite's waiting mail, and the spending-limit
// notice's once-a-day check, which a client may trigger on every call past its limit. Without an index each
// lookup read the whole outbox, sent mail included (kept). One index probe now.
export const mailOutboxReferenceMigration = {
  async up(db: Kysely<any>) {
    await sql`create index mail_outbox_reference on mail_outbox (reference)`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop index mail_outbox_reference`.execute(db);
  },
};
