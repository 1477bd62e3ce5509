import type { Conn } from '../../db/connection.ts';
import { createContextWithRows } from '../contexts/service.ts';
import { createProject } from '../projects/repository.ts';
import { insertInterface, insertTab, insertTile } from './repository.ts';

/** The starter project of semantics.md §4: new users can open a dashboard and export a tile at once. */
export const STARTER = {
  project: 'Starter',
  context: 'Tasks',
  interface: 'Overview',
  tab: 'Tasks',
  tile: 'Tasks',
  rows: [
    { title: 'Write the first report', status: 'open', priority: 2 },
    { title: 'Review the dashboard', status: 'in progress', priority: 1 },
    { title: 'Invite a teammate', status: 'done', priority: 3 },
  ],
} as const;

/** Part of every new account (account/service.ts createAccount), in its transaction. */
export async function createStarterProject(tx: Conn, userId: string, now: Date): Promise<void> {
  const description = 'An example project: open Dashboards to see its tile, export it, import it elsewhere.';
  const project = await createProject(tx, { userId, organizationId: null }, { name: STARTER.project, description }, now);
  if (!project) throw new Error(`Project ${STARTER.project} already exists for user ${userId}`);
  await createContextWithRows(
    tx,
    project.id,
    STARTER.context,
    STARTER.rows.map((r) => ({ ...r })),
    now,
  );
  const iface = await insertInterface(tx, project.id, STARTER.interface, now);
  const tab = await insertTab(tx, iface.id, STARTER.tab, now);
  await insertTile(
    tx,
    tab.id,
    {
      name: STARTER.tile,
      type: 'Table',
      position: { x: 0, y: 0, width: 12, height: 4 },
      context: STARTER.context,
      table_tile: { table_type: 'default', column_order: ['title', 'status', 'priority'] },
      plot_tile: null,
      filter: null,
    },
    userId,
    now,
  );
}
