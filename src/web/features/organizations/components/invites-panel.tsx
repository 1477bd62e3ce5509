import { ActionIcon, Badge, Button, Group, Modal, NumberInput, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMail, IconRefresh, IconSend, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { INVITE_DEFAULT_DAYS, INVITE_MAX_DAYS, INVITE_MIN_DAYS, InviteInput, type Invite } from '../../../../shared/invites.ts';
import { ROLE_IDS } from '../../../../shared/roles.ts';
import { DeleteRowButton } from '../../../components/delete-row-button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { GatedButton } from '../../../components/gated-button.tsx';
import { ListSkeleton, ListTable, QueryList, RowActions } from '../../../components/list-kit.tsx';
import { SecretReveal } from '../../../components/secret-reveal.tsx';
import { inviteQueries } from '../../../data/invites.ts';
import { applyServerErrors, useZodForm } from '../../../lib/form.ts';
import type { Me } from '../../../data/account.ts';
import { missingPermission } from '../../../lib/use-me.ts';
import { inviteLink, useCancelInvite, useSendInvite } from '../api.ts';
import { RoleSelect } from './role-select.tsx';
import { PermissionGate } from '../../../components/permission-gate.tsx';
import { timeLeft } from '../format.ts';
import { ErrorText } from '../../../components/error-text.tsx';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DAYS = `Between ${INVITE_MIN_DAYS} and ${INVITE_MAX_DAYS} days.`;

// The server's rules, after checks in the dashboard's words (an address as it is typed, whole days).
const InviteForm = InviteInput.pick({ role_id: true }).extend({
  email: z
    .string()
    .refine((s) => EMAIL.test(s.trim()), 'Enter a valid e-mail address.')
    .pipe(InviteInput.shape.email),
  expires_in_days: z.number({ error: DAYS }).int(DAYS).min(INVITE_MIN_DAYS, DAYS).max(INVITE_MAX_DAYS, DAYS),
});

/** A new invitation, or with `preset` a fresh link for a pending one (same address and role). */
function InviteModal({ orgId, opened, onClose, preset }: { orgId: number; opened: boolean; onClose: () => void; preset: Invite | null }) {
  const send = useSendInvite();
  const [sent, setSent] = useState<Invite | null>(null);
  const form = useZodForm(InviteForm, {
    defaultValues: { email: preset?.invitee_email ?? '', role_id: preset?.role_id ?? ROLE_IDS.Member, expires_in_days: INVITE_DEFAULT_DAYS },
  });
  const { errors } = form.formState;
  const close = () => {
    form.reset();
    setSent(null);
    onClose();
  };
  const submit = form.handleSubmit(async (invite) => {
    try {
      setSent(await send.mutateAsync({ organizationId: orgId, invite }));
    } catch (err) {
      applyServerErrors(err, form.setError, ['email', 'role_id', 'expires_in_days']);
    }
  });
  return (
    <Modal opened={opened} onClose={close} title={preset ? 'Resend invitation' : 'Invite by e-mail'} closeButtonProps={{ 'aria-label': 'Close' }}>
      {sent ? (
        <Stack>
          <Text size="sm">
            An e-mail is on its way to {sent.invitee_email}. The link expires {new Date(sent.expires_at).toLocaleString()}
            {preset ? '; the previous link no longer works.' : '.'}
          </Text>
          <SecretReveal label="Invitation link" value={inviteLink(sent.token ?? '')} note="You can also share this link yourself. It is shown only once." />
          <Button onClick={close}>Done</Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput label="E-mail address" type="email" required readOnly={!!preset} error={errors.email?.message} data-autofocus {...form.register('email')} />
            <Controller control={form.control} name="role_id" render={({ field }) => <RoleSelect value={field.value} onChange={field.onChange} />} />
            <Controller
              control={form.control}
              name="expires_in_days"
              render={({ field }) => (
                <NumberInput
                  label="Expires after (days)"
                  min={INVITE_MIN_DAYS}
                  max={INVITE_MAX_DAYS}
                  allowDecimal={false}
                  // Emptied, the field holds '' (not a number): the schema says what is wrong.
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={errors.expires_in_days?.message}
                />
              )}
            />
            <ErrorText>{errors.root?.server?.message}</ErrorText>
            <Button type="submit" leftSection={<IconSend size={16} aria-hidden />} loading={send.isPending}>
              {preset ? 'Resend invitation' : 'Send invitation'}
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

export function InvitesPanel({ orgId, me }: { orgId: number; me: Me }) {
  const invites = useQuery(inviteQueries.pending(orgId));
  const cancel = useCancelInvite();
  const [opened, modal] = useDisclosure(false);
  const [preset, setPreset] = useState<Invite | null>(null);
  const writeReason = missingPermission(me, 'org:write');
  const openInvite = (inv: Invite | null) => {
    setPreset(inv);
    modal.open();
  };

  return (
    <Stack>
      <Group justify="flex-end">
        <GatedButton reason={writeReason} icon={<IconMail size={16} aria-hidden />} onClick={() => openInvite(null)}>
          Invite by e-mail
        </GatedButton>
      </Group>
      <QueryList
        query={invites}
        loading={<ListSkeleton rows={2} height={44} />}
        errorTitle="Could not load the invitations"
        empty={<EmptyState icon={<IconMail />} title="No pending invitations" description="Invite people by e-mail; they join when they accept the link." />}
      >
        {(list) => (
          <ListTable columns={['E-mail', 'Role', 'Invited by', 'Expires']} actions minWidth={640} label="Pending invitations">
            {list.map((inv) => (
              <Table.Tr key={inv.id}>
                <Table.Td>{inv.invitee_email}</Table.Td>
                <Table.Td>
                  <Badge variant="light">{inv.role_name}</Badge>
                </Table.Td>
                <Table.Td>{inv.invited_by_name ?? inv.invited_by_user_id}</Table.Td>
                <Table.Td>
                  <Tooltip label={new Date(inv.expires_at).toLocaleString()}>
                    <Text size="sm" span tabIndex={0}>
                      {timeLeft(inv.expires_at)}
                    </Text>
                  </Tooltip>
                </Table.Td>
                <RowActions>
                  <PermissionGate reason={writeReason}>
                    <ActionIcon variant="subtle" disabled={!!writeReason} aria-label={`Resend invitation to ${inv.invitee_email}`} onClick={() => openInvite(inv)}>
                      <IconRefresh size={16} aria-hidden />
                    </ActionIcon>
                  </PermissionGate>
                  <DeleteRowButton
                    label={`Cancel invitation to ${inv.invitee_email}`}
                    reason={writeReason}
                    icon={<IconX size={16} aria-hidden />}
                    confirm={{
                      title: 'Cancel invitation',
                      message: `Cancel the invitation to ${inv.invitee_email}? Its link stops working.`,
                      confirmLabel: 'Cancel invitation',
                      onConfirm: () => cancel.mutate({ organizationId: orgId, inviteId: inv.id }),
                    }}
                  />
                </RowActions>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </QueryList>
      {/* A new preset is a new form: its defaults are the preset's. */}
      <InviteModal key={preset?.id ?? 'new'} orgId={orgId} opened={opened} onClose={modal.close} preset={preset} />
    </Stack>
  );
}
