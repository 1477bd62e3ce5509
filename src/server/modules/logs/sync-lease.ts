import type { z } from 'zod';
import type { AcquireLeaseBody, ReleaseLeaseBody } from '../../../shared/logs-queries.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Conn } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import { projectInScopeOr404 } from '../projects/service.ts';

// Sync leases (logs-api.md §9, current release): one row per (project, lease_key). Taking it is one
// statement (insert, or take over when it is ours or expired), so two holders racing cannot both win.

export const DEFAULT_LEASE_SECONDS = 60;

export async function acquireLease(db: Conn, scope: Scope, body: z.output<typeof AcquireLeaseBody>, now: Date) {
  const project = await projectInScopeOr404(db, scope, body.project);
  const expiresAt = new Date(now.getTime() + (body.ttl_seconds ?? DEFAULT_LEASE_SECONDS) * 1000).toISOString();
  const taken = await db
    .insertInto('sync_leases')
    .values({ project_id: project.id, lease_key: body.lease_key, holder: body.holder, expires_at: expiresAt })
    .onConflict((oc) =>
      oc
        .columns(['project_id', 'lease_key'])
        .doUpdateSet({ holder: body.holder, expires_at: expiresAt })
        .where((eb) => eb.or([eb('sync_leases.holder', '=', body.holder), eb('sync_leases.expires_at', '<=', now.toISOString())])),
    )
    .returning(['holder', 'expires_at'])
    .executeTakeFirst();
  if (taken) return { lease_key: body.lease_key, holder: taken.holder, expires_at: taken.expires_at, acquired: true };
  const held = await db
    .selectFrom('sync_leases')
    .select(['holder', 'expires_at'])
    .where('project_id', '=', project.id)
    .where('lease_key', '=', body.lease_key)
    .executeTakeFirstOrThrow();
  // The SDK raises SyncLeaseHeldError from exactly these two members of `detail`.
  throw new HttpError(409, { held_by: held.holder, expires_at: held.expires_at });
}

export async function releaseLease(db: Conn, scope: Scope, body: z.output<typeof ReleaseLeaseBody>) {
  const project = await projectInScopeOr404(db, scope, body.project);
  const result = await db
    .deleteFrom('sync_leases')
    .where('project_id', '=', project.id)
    .where('lease_key', '=', body.lease_key)
    .where('holder', '=', body.holder)
    .executeTakeFirst();
  return { lease_key: body.lease_key, released: Number(result.numDeletedRows) > 0 };
}
