import { notifications } from '@mantine/notifications';
import { inviteMutations } from '../../data/invites.ts';
import { memberMutations } from '../../data/members.ts';
import { organizationMutations } from '../../data/organizations.ts';
import { ownershipMutations } from '../../data/ownership.ts';
import { useApiMutation } from '../../lib/mutation.ts';

// The feature's changes as hooks: the data layer's mutations (what they refresh) plus what the person
// is told.

/** Notifications whose close button has a name (axe: button-name). */
function notify(n: { color: string; message: string; title?: string }) {
  notifications.show({ ...n, closeButtonProps: { 'aria-label': 'Dismiss notification' } });
}

/** The link an invitee opens (the dashboard's own origin). */
export function inviteLink(token: string): string {
  return `${window.location.origin}/invite?token=${encodeURIComponent(token)}`;
}

export function useCreateOrganization() {
  return useApiMutation(organizationMutations.create, {
    onSuccess: (org) => notify({ color: 'teal', message: `Organization ${org.name} created.` }),
  });
}

export function useAddMember() {
  return useApiMutation(memberMutations.add, {
    onSuccess: () => notify({ color: 'teal', message: 'Member added.' }),
  });
}

export function useChangeRole() {
  return useApiMutation(memberMutations.changeRole, {
    onSuccess: (m) => notify({ color: 'teal', message: `${m.name ?? m.email ?? 'Member'} is now ${m.role_name}.` }),
    onError: (error) => notify({ color: 'red', title: 'Role not changed', message: error.message }),
  });
}

export function useRemoveMember() {
  return useApiMutation(memberMutations.remove, {
    onSuccess: () => notify({ color: 'teal', message: 'Member removed; their organization key no longer works.' }),
    onError: (error) => notify({ color: 'red', title: 'Member not removed', message: error.message }),
  });
}

export function useSendInvite() {
  return useApiMutation(inviteMutations.send, {
    onSuccess: (invite) => notify({ color: 'teal', message: `Invitation sent to ${invite.invitee_email}.` }),
  });
}

export function useCancelInvite() {
  return useApiMutation(inviteMutations.cancel, {
    onSuccess: () => notify({ color: 'teal', message: 'Invitation cancelled; its link no longer works.' }),
    onError: (error) => notify({ color: 'red', title: 'Invitation not cancelled', message: error.message }),
  });
}

export function useTransferOwnership() {
  return useApiMutation(ownershipMutations.transfer, {
    onSuccess: () => notify({ color: 'teal', message: 'Ownership transferred. You are now an Admin of the organization.' }),
  });
}

export function useLeaveOrganization() {
  return useApiMutation(ownershipMutations.leave, {
    onSuccess: (r) => notify({ color: 'teal', message: r.message }),
  });
}

export function useDeleteOrganization() {
  return useApiMutation(ownershipMutations.delete, {
    onSuccess: (r) => notify({ color: 'teal', message: r.message }),
  });
}

export function useMoveCredits() {
  return useApiMutation(ownershipMutations.moveCredits, {
    onSuccess: (r) =>
      notify({ color: 'teal', message: `Moved ${r.moved} credits. The organization has ${r.organization_credits}; your personal balance is ${r.personal_credits}.` }),
  });
}
