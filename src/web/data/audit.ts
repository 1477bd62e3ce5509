import { infiniteQueryOptions } from '@tanstack/react-query';
import type { AuditAction } from '../../shared/audit.ts';
import { listOrganizationAudit, listPersonalAudit } from '../../shared/operations/audit.ts';
import { api } from '../lib/api-client.ts';
import { organizationKeys } from './organizations.ts';

// The activity log of a workspace (issue 19): pages of events, newest first, fetched one "Load more" at
// a time with the server's cursor. An organization's log lives under that organization's cache key (it
// goes when the person leaves it); the personal one under its own.

export interface AuditFilter {
  actor?: string;
  action?: AuditAction;
}

export const AUDIT_PAGE_SIZE = 25;

export const auditKeys = {
  personal: ['audit', 'personal'] as const,
  organization: (organizationId: number) => [...organizationKeys.organization(organizationId), 'audit'] as const,
};

export const auditQueries = {
  /** `organizationId` null: the personal workspace. */
  log: (organizationId: number | null, filter: AuditFilter) =>
    infiniteQueryOptions({
      queryKey: [...(organizationId === null ? auditKeys.personal : auditKeys.organization(organizationId)), filter] as const,
      queryFn: ({ pageParam, signal }) => {
        const query = { actor: filter.actor, action: filter.action, limit: AUDIT_PAGE_SIZE, cursor: pageParam };
        return organizationId === null
          ? api(listPersonalAudit, { query, signal })
          : api(listOrganizationAudit, { params: { organization_id: organizationId }, query, signal });
      },
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.next_cursor,
    }),
};
