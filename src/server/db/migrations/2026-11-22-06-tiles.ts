import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

// Frozen: never edit a landed migration; add a new dated file instead.
// Interfaces → tabs → tiles (semantics.md §4). Ids are UUIDs; positions and tile settings are JSON text.
export function tilesMigration(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('interfaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('interfaces_project_name', ['project_id', 'name'])
        .execute();

      await db.schema
        .createTable('tabs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('interface_id', 'text', (c) => c.notNull().references('interfaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('sort_order', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('tabs_interface_name', ['interface_id', 'name'])
        .execute();

      await db.schema
        .createTable('tiles')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tab_id', 'text', (c) => c.notNull().references('tabs.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('position', 'text', (c) => c.notNull())
        .addColumn('context', 'text')
        .addColumn('settings', 'text')
        .addColumn('created_by', 'text')
        .addColumn('checkpoint', 'text')
        .addColumn('checkpoint_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('tiles_tab_name', ['tab_id', 'name'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('tiles').execute();
      await db.schema.dropTable('tabs').execute();
      await db.schema.dropTable('interfaces').execute();
    },
  };
}
