import type { Kysely } from 'kysely';

// Frozen. Browser sessions signed in by e-mail link (issue 19): the session id and the link's token are
// stored only as SHA-256 hashes, so a copy of the database opens no session. `email_verified_at` is when
// a person last proved their address by opening a link sent to it (invites listed by address need it).
export const sessionsMigration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('users').addColumn('email_verified_at', 'text').execute();
    await db.schema
      .createTable('sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
    await db.schema
      .createTable('login_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('login_tokens_expires_at').on('login_tokens').column('expires_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('login_tokens').execute();
    await db.schema.dropTable('sessions').execute();
    await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
  },
};
