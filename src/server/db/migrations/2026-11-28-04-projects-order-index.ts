import { sql, type Kysely } from 'kysely';

// Frozen. A new project goes after the last of its account's (max(sort_order) of the scope): without an
// index that covers it, that read every project of every account, and creating a project slowed down as
// the database grew (~1.2 ms of CPU a project with 9 000 in the database). One index probe now.
export const projectsOrderIndexMigration = {
  async up(db: Kysely<any>) {
    await sql`create index projects_scope_order on projects (scope_key, sort_order)`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop index projects_scope_order`.execute(db);
  },
};
