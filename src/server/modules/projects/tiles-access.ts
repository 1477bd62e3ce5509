import { provideProjectAccess } from '../tiles/project-access.ts';
import { createContext, insertRows, projectColumns, rulesOf } from '../contexts/repository.ts';
import { createProject, findProjectByName } from './repository.ts';

// What tile templates need from projects (see tiles/project-access.ts), given once at load.
provideProjectAccess({
  projectInScope: async (db, scope, name) => {
    const project = await findProjectByName(db, scope, name);
    return project ? { id: project.id, name: project.name } : undefined;
  },
  projectContexts: (db, projectId) => projectColumns(db, projectId),
  createProjectWithContext: async (tx, userId, project, context, now) => {
    const created = await createProject(tx, { userId, organizationId: null }, project, now);
    if (!created) throw new Error(`Project ${project.name} already exists for user ${userId}`);
    const ctx = await createContext(tx, created.id, { name: context.name }, now);
    const row = await tx.selectFrom('contexts').selectAll().where('id', '=', ctx!.id).executeTakeFirstOrThrow();
    await insertRows(tx, rulesOf(row), context.rows, now);
    return { projectId: created.id };
  },
});
