import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { withIdColumn } from '../schema-helpers.ts';

// Frozen. Project-level versions (logs API §7): a project commit ties together one context commit per
// versioned context of the project (project_commit_contexts), so a project is committed and rolled back
// as a whole. projects.head_commit_id is the project commit last made or rolled back to (like
// contexts.head_commit_id); later project commits stay, the history is a DAG as a context's is.
export function projectCommitsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withIdColumn(db.schema.createTable('project_commits'), dialect)
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('prev_hash', 'text')
        .addColumn('message', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('project_commits_project').on('project_commits').columns(['project_id', 'id']).execute();

      // A deleted context (or its history) drops out of the project commits that held it.
      await db.schema
        .createTable('project_commit_contexts')
        .addColumn('project_commit_id', 'integer', (c) => c.notNull().references('project_commits.id').onDelete('cascade'))
        .addColumn('context_id', 'integer', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
        .addColumn('commit_id', 'integer', (c) => c.notNull().references('commits.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('project_commit_contexts_pk', ['project_commit_id', 'context_id'])
        .execute();
      await db.schema.createIndex('project_commit_contexts_context').on('project_commit_contexts').column('context_id').execute();
      await db.schema.createIndex('project_commit_contexts_commit').on('project_commit_contexts').column('commit_id').execute();

      await db.schema.alterTable('projects').addColumn('head_commit_id', 'integer').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('projects').dropColumn('head_commit_id').execute();
      await db.schema.dropTable('project_commit_contexts').execute();
      await db.schema.dropTable('project_commits').execute();
    },
  };
}
