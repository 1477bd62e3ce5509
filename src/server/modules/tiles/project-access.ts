import type { Scope } from '../../auth/principal.ts';
import type { Conn } from '../../db/connection.ts';

/**
 * What the tiles module needs from projects and contexts (issue 4), in one seam. The projects module
 * provides it with `provideProjectAccess(...)` when it loads; tiles never touch the projects tables directly.
 */
export interface ProjectAccess {
  /** The project of that name in the caller's scope, or undefined (another tenant's is "not found"). */
  projectInScope(db: Conn, scope: Scope, name: string): Promise<{ id: number; name: string } | undefined>;
  /** Every context of the project with its column names (what validation checks templates against). */
  projectContexts(db: Conn, projectId: number): Promise<Map<string, string[]>>;
  /** Creates a personal project holding one context with these rows, inside the caller's transaction. */
  createProjectWithContext(
    tx: Conn,
    userId: string,
    project: { name: string; description: string },
    context: { name: string; rows: Record<string, unknown>[] },
    now: Date,
  ): Promise<{ projectId: number }>;
}

let provided: ProjectAccess | null = null;

export function provideProjectAccess(access: ProjectAccess): void {
  provided = access;
}

export function hasProjectAccess(): boolean {
  return provided !== null;
}

function access(): ProjectAccess {
  if (!provided) throw new Error('The projects module has not provided ProjectAccess (tiles/project-access.ts).');
  return provided;
}

export const projectInScope: ProjectAccess['projectInScope'] = (db, scope, name) => access().projectInScope(db, scope, name);
export const projectContexts: ProjectAccess['projectContexts'] = (db, projectId) => access().projectContexts(db, projectId);
export const createProjectWithContext: ProjectAccess['createProjectWithContext'] = (tx, userId, project, context, now) =>
  access().createProjectWithContext(tx, userId, project, context, now);
