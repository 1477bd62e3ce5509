import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { BIGINT, withIdColumn } from '../schema-helpers.ts';

// Frozen. Projects, contexts and their rows; versions stored as per-commit deltas (commit_rows holds
// only the rows a commit changed), so history grows with change, not with the size of a context.
export function projectsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withIdColumn(db.schema.createTable('projects'), dialect)
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade'))
        .addColumn('scope_key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('icon', 'text')
        .addColumn('sort_order', 'integer')
        .addColumn('is_versioned', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('projects_scope_name', ['scope_key', 'name'])
        .execute();

      await withIdColumn(db.schema.createTable('contexts'), dialect)
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('is_versioned', 'integer', (c) => c.notNull())
        .addColumn('allow_duplicates', 'integer', (c) => c.notNull())
        .addColumn('unique_keys', 'text', (c) => c.notNull())
        .addColumn('auto_counting', 'text', (c) => c.notNull())
        // Every column name seen in the rows, kept up to date by writes (tiles validate against it).
        .addColumn('columns', 'text', (c) => c.notNull())
        .addColumn('head_commit_id', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('contexts_project_name', ['project_id', 'name'])
        .execute();

      await withIdColumn(db.schema.createTable('context_rows'), dialect)
        .addColumn('context_id', 'integer', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
        .addColumn('entries', 'text', (c) => c.notNull())
        // Derived from entries: the unique-key values, and a content hash when duplicates are refused.
        .addColumn('unique_key', 'text')
        .addColumn('content_hash', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('context_rows_unique_key', ['context_id', 'unique_key'])
        .addUniqueConstraint('context_rows_content', ['context_id', 'content_hash'])
        .execute();

      await db.schema
        .createTable('context_counters')
        .addColumn('context_id', 'integer', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
        .addColumn('counter_key', 'text', (c) => c.notNull())
        .addColumn('next_value', BIGINT, (c) => c.notNull())
        .addPrimaryKeyConstraint('context_counters_pk', ['context_id', 'counter_key'])
        .execute();

      await withIdColumn(db.schema.createTable('commits'), dialect)
        .addColumn('context_id', 'integer', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('prev_hash', 'text')
        .addColumn('message', 'text')
        .addColumn('row_count', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('commits_context').on('commits').columns(['context_id', 'id']).execute();
      await db.schema.createIndex('commits_prev').on('commits').column('prev_hash').execute();

      await db.schema
        .createTable('commit_rows')
        .addColumn('commit_id', 'integer', (c) => c.notNull().references('commits.id').onDelete('cascade'))
        .addColumn('row_id', 'integer', (c) => c.notNull())
        // NULL entries: the row was deleted by this commit.
        .addColumn('entries', 'text')
        .addColumn('unique_key', 'text')
        .addColumn('content_hash', 'text')
        .addColumn('created_at', 'text')
        .addColumn('updated_at', 'text')
        .addPrimaryKeyConstraint('commit_rows_pk', ['commit_id', 'row_id'])
        .execute();

      // Rows changed since the context's last commit (versioned contexts only).
      await db.schema
        .createTable('pending_changes')
        .addColumn('context_id', 'integer', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
        .addColumn('row_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('pending_changes_pk', ['context_id', 'row_id'])
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const t of ['pending_changes', 'commit_rows', 'commits', 'context_counters', 'context_rows', 'contexts', 'projects']) {
        await db.schema.dropTable(t).execute();
      }
    },
  };
}
