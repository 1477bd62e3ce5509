import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import type { AcceptedInvite, Invite } from '../../../shared/invites.ts';
import type { AddedMember, CreatedOrganization, Member } from '../../../shared/organizations.ts';
import { orgKeys } from './queries.ts';

/** Notifications whose close button has a name (axe: button-name). */
function notify(n: { color: string; message: string; title?: string }) {
  notifications.show({ ...n, closeButtonProps: { 'aria-label': 'Dismiss notification' } });
}

/** The link an invitee opens (the dashboard's own origin). */
export function inviteLink(token: string): string {
  return `${window.location.origin}/invite?token=${encodeURIComponent(token)}`;
}

export function useCreateOrganization() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post<CreatedOrganization>('/v0/organizations', { name }),
    onSuccess: (org) => {
      void qc.invalidateQueries({ queryKey: orgKeys.mine() });
      notify({ color: 'teal', message: `Organization ${org.name} created.` });
    },
  });
}

export function useAddMember(orgId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { user_id: string; role_id: number }) => api.post<AddedMember>(`/v0/organizations/${orgId}/members`, input),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: orgKeys.members(orgId) });
      notify({ color: 'teal', message: 'Member added.' });
    },
  });
}

export function useChangeRole(orgId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { user_id: string; role_id: number }) =>
      api.patch<Member>(`/v0/organizations/${orgId}/members/${encodeURIComponent(input.user_id)}`, { role_id: input.role_id }),
    onSuccess: (m) => {
      void qc.invalidateQueries({ queryKey: orgKeys.members(orgId) });
      notify({ color: 'teal', message: `${m.name ?? m.email ?? 'Member'} is now ${m.role_name}.` });
    },
    onError: (error) => notify({ color: 'red', title: 'Role not changed', message: error.message }),
  });
}

export function useRemoveMember(orgId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.delete<void>(`/v0/organizations/${orgId}/members/${encodeURIComponent(userId)}`),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: orgKeys.members(orgId) });
      notify({ color: 'teal', message: 'Member removed; their organization key no longer works.' });
    },
    onError: (error) => notify({ color: 'red', title: 'Member not removed', message: error.message }),
  });
}

export function useInvite(orgId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; role_id: number; expires_in_days: number }) =>
      api.post<Invite>(`/v0/organizations/${orgId}/invites`, input),
    onSuccess: (inv) => {
      void qc.invalidateQueries({ queryKey: orgKeys.invites(orgId) });
      notify({ color: 'teal', message: `Invitation sent to ${inv.invitee_email}.` });
    },
  });
}

export function useCancelInvite(orgId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (inviteId: string) => api.delete<void>(`/v0/organizations/${orgId}/invites/${encodeURIComponent(inviteId)}`),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: orgKeys.invites(orgId) });
      notify({ color: 'teal', message: 'Invitation cancelled; its link no longer works.' });
    },
    onError: (error) => notify({ color: 'red', title: 'Invitation not cancelled', message: error.message }),
  });
}

export function useAnswerInvite(token: string) {
  return useMutation({
    mutationFn: (answer: 'accept' | 'decline') =>
      answer === 'accept'
        ? api.post<AcceptedInvite>(`/v0/invites/${encodeURIComponent(token)}/accept`)
        : api.post<{ message: string }>(`/v0/invites/${encodeURIComponent(token)}/decline`),
  });
}
