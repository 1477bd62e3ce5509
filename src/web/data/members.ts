import { queryOptions } from '@tanstack/react-query';
import { addMember, changeMemberRole, listOrganizationMembers, removeMember } from '../../shared/operations/organizations.ts';
import type { AddMemberInput } from '../../shared/organizations.ts';
import { api } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';
import { organizationKeys } from './organizations.ts';

// Members of an organization: cache keys, reads and changes. Every change refreshes the list, and the
// caller's organizations (their member counts); a failed one refreshes the list too (a 404 or 409 says
// someone else changed it first).

export const memberKeys = {
  list: (organizationId: number) => [...organizationKeys.organization(organizationId), 'members'] as const,
};

export const memberQueries = {
  list: (organizationId: number) =>
    queryOptions({
      queryKey: memberKeys.list(organizationId),
      queryFn: ({ signal }) => api(listOrganizationMembers, { params: { organization_id: organizationId }, signal }),
    }),
};

/** One member of one organization. */
export interface MemberRef {
  organizationId: number;
  userId: string;
}

const afterChange = (organizationId: number) => [memberKeys.list(organizationId), organizationKeys.mine()];

export const memberMutations = {
  add: mutation({
    mutationFn: ({ organizationId, member }: { organizationId: number; member: AddMemberInput }) =>
      api(addMember, { params: { organization_id: organizationId }, body: member }),
    invalidates: (_r, { organizationId }) => afterChange(organizationId),
    invalidatesOnError: ({ organizationId }) => [memberKeys.list(organizationId)],
  }),
  changeRole: mutation({
    mutationFn: ({ organizationId, userId, roleId }: MemberRef & { roleId: number }) =>
      api(changeMemberRole, { params: { organization_id: organizationId, user_id: userId }, body: { role_id: roleId } }),
    invalidates: (_r, { organizationId }) => afterChange(organizationId),
    invalidatesOnError: ({ organizationId }) => [memberKeys.list(organizationId)],
  }),
  remove: mutation({
    mutationFn: ({ organizationId, userId }: MemberRef) => api(removeMember, { params: { organization_id: organizationId, user_id: userId } }),
    invalidates: (_r, { organizationId }) => afterChange(organizationId),
    invalidatesOnError: ({ organizationId }) => [memberKeys.list(organizationId)],
  }),
};
