import { AcquireLeaseBody, LeaseResponse, ReleasedResponse, ReleaseLeaseBody } from '../logs-queries.ts';
import { inScope, operation } from '../operation.ts';

// Sync leases (logs-api.md §9, current release): a named lock per project that one holder keeps for a
// while. Acquiring again as the same holder renews it; another holder gets 409 with who holds it and until when.

export const acquireSyncLease = operation({
  method: 'POST',
  path: '/v0/sync_lease/acquire',
  operationId: 'acquireSyncLease',
  summary: 'Take or renew a named lease of a project for `ttl_seconds` (default 60); 409 `{"detail": {"held_by", "expires_at"}}` while another holder has it',
  tag: 'logs',
  extension: true,
  access: inScope('project:write'),
  body: AcquireLeaseBody,
  response: LeaseResponse,
  errors: [403, 404, 409],
});

export const releaseSyncLease = operation({
  method: 'POST',
  path: '/v0/sync_lease/release',
  operationId: 'releaseSyncLease',
  summary: 'Give a lease back (only its holder can; releasing a lease you do not hold changes nothing)',
  tag: 'logs',
  extension: true,
  access: inScope('project:write'),
  body: ReleaseLeaseBody,
  response: ReleasedResponse,
  errors: [403, 404],
});
