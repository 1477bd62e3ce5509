import { sql, type Kysely } from 'kysely';

// Frozen. Instance administrators (security review, medium 3): only they create other people's
// accounts. The first user of an existing instance becomes one, as a new instance's first user does.
export const instanceAdminsMigration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('users')
      .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update users set is_admin = 1 where id = (select id from users order by created_at, id limit 1)`.execute(db);
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('users').dropColumn('is_admin').execute();
  },
};
