import type { Kysely } from 'kysely';

// Frozen. A log may belong to several contexts at once with one id (logs-api.md §2, §6 add_logs). The
// row's context_id stays its "home" context (its content is versioned there); context_log_members lists
// the other contexts it belongs to, with its unique key and content hash under that context's rules
// (checked when it was added). commit_members records, per commit of a context, the member logs the
// context had, so a rollback restores its membership set.
export const logMembershipsMigration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('context_log_members')
      .addColumn('context_id', 'integer', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
      .addColumn('row_id', 'integer', (c) => c.notNull().references('context_rows.id').onDelete('cascade'))
      .addColumn('unique_key', 'text')
      .addColumn('content_hash', 'text')
      .addPrimaryKeyConstraint('context_log_members_pk', ['context_id', 'row_id'])
      .addUniqueConstraint('context_log_members_unique_key', ['context_id', 'unique_key'])
      .addUniqueConstraint('context_log_members_content', ['context_id', 'content_hash'])
      .execute();
    await db.schema.createIndex('context_log_members_row').on('context_log_members').column('row_id').execute();
    await db.schema
      .createTable('commit_members')
      .addColumn('commit_id', 'integer', (c) => c.notNull().references('commits.id').onDelete('cascade'))
      .addColumn('row_id', 'integer', (c) => c.notNull())
      .addColumn('unique_key', 'text')
      .addColumn('content_hash', 'text')
      .addPrimaryKeyConstraint('commit_members_pk', ['commit_id', 'row_id'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('commit_members').execute();
    await db.schema.dropTable('context_log_members').execute();
  },
};
