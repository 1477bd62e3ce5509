import type { Insertable } from 'kysely';
import type { Scope } from '../../auth/principal.ts';
import { projectsEpochOf, type Conn } from '../../db/connection.ts';
import { cachePerDatabase, type MaybePromise } from '../../db/epoch-cache.ts';
import { insertShape, runPrepared } from '../../db/prepared.ts';
import { scopeKey } from '../../db/scope.ts';
import { RawJson } from '../../http/raw-json.ts';
import type { ProjectTable } from './tables.ts';

export interface NewProject {
  name: string;
  description?: string | null;
  icon?: string | null;
  order?: number | null;
  is_versioned?: boolean;
}

const lastOrder = (db: Conn) =>
  db
    .selectFrom('projects')
    .select((eb) => eb.fn.max('sort_order').as('max'))
    .where('scope_key', '=', '?');

// POST /v0/project: the insert and the order probe above are built once, not per request (db/prepared.ts).
type NewProjectRow = Omit<Insertable<ProjectTable>, 'id' | 'head_commit_id'>;
const projectRow = insertShape<NewProjectRow>({
  user_id: null,
  organization_id: null,
  scope_key: null,
  name: null,
  description: null,
  icon: null,
  sort_order: null,
  is_versioned: null,
  created_at: null,
});
const insertProject = (db: Conn) =>
  db
    .insertInto('projects')
    .values(projectRow.placeholders)
    .onConflict((oc) => oc.columns(['scope_key', 'name']).doNothing())
    .returning('id');

/** Inserts the project unless its name is taken in the scope (then null: the unique index decides races). */
export async function createProject(db: Conn, scope: Scope, input: NewProject, now: Date): Promise<{ id: number } | null> {
  const key = scopeKey(scope);
  let order = input.order ?? null;
  if (order === null) {
    // By scope_key, on the (scope_key, sort_order) index: one index probe. By user_id/organization_id (no
    // index) it read every project of every account: POST /v0/project took ~1.2 ms of CPU with 9 000 projects.
    const [last] = await runPrepared(db, 'last-project-order', lastOrder, [key]);
    order = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
  }
  const values: NewProjectRow = {
    user_id: scope.userId,
    organization_id: scope.organizationId,
    scope_key: key,
    name: input.name,
    description: input.description ?? null,
    icon: input.icon ?? 'folder',
    sort_order: order,
    is_versioned: input.is_versioned ? 1 : 0,
    created_at: now.toISOString(),
  };
  const [row] = await runPrepared(db, 'insert-project', insertProject, projectRow.params(values));
  return row ?? null;
}

/**
 * GET /v0/projects, the clients' most frequent call: built once (db/prepared.ts), and the answer kept per
 * workspace, as the JSON it is sent as, while no project has changed, here or in another process, and for at
 * most the epoch's bound (db/epoch-cache.ts): the read was a third of the server's CPU for the request.
 */
const projectNamesQuery = (db: Conn) => db.selectFrom('projects').select('name').where('scope_key', '=', '?').orderBy('sort_order').orderBy('name');
const namesCache = cachePerDatabase<RawJson>(projectsEpochOf);

export function listProjectNames(db: Conn, scope: Scope): MaybePromise<RawJson> {
  const key = scopeKey(scope);
  return namesCache(db).get(key, async () => new RawJson(JSON.stringify((await runPrepared(db, 'project-names', projectNamesQuery, [key])).map((r) => r.name))));
}

export function findProjectByName(db: Conn, scope: Scope, name: string) {
  return db.selectFrom('projects').selectAll().where('scope_key', '=', scopeKey(scope)).where('name', '=', name).executeTakeFirst();
}

export async function deleteProject(db: Conn, projectId: number): Promise<void> {
  await db.deleteFrom('projects').where('id', '=', projectId).execute();
}

/** Deletes the user's personal projects (with their contexts, rows and dashboards); part of account deletion. */
export async function deletePersonalProjects(db: Conn, userId: string): Promise<void> {
  await db
    .deleteFrom('projects')
    .where('scope_key', '=', scopeKey({ userId, organizationId: null }))
    .execute();
}
