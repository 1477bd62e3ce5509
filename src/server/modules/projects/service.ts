import type { Scope } from '../../auth/principal.ts';
import type { Conn } from '../../db/connection.ts';
import { notFoundError } from '../../domain-errors.ts';
import { findProjectByName } from './repository.ts';

/** The project of the scope with that name, or not found (another tenant's project does not exist for you). */
export async function projectInScopeOr404(db: Conn, scope: Scope, name: string) {
  const project = await findProjectByName(db, scope, name);
  if (!project) throw notFoundError('Project not found.');
  return project;
}
