import { ActionIcon, Badge, Button, Group, Modal, NumberInput, Select, Skeleton, Stack, Table, Text, TextInput, Tooltip, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMail, IconRefresh, IconSend, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { SecretReveal } from '../../../components/secret-reveal.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import type { Me } from '../../../lib/me-query.ts';
import { missingPermission } from '../../../lib/use-me.ts';
import type { Invite } from '../../../../shared/invites.ts';
import { inviteLink, useCancelInvite, useInvite } from '../api.ts';
import { orgQueries } from '../queries.ts';
import { ASSIGNABLE_ROLES } from './members-panel.tsx';
import { PermissionGate } from '../../../components/permission-gate.tsx';
import { timeLeft } from '../format.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;


function InviteModal({ orgId, opened, onClose, preset }: { orgId: number; opened: boolean; onClose: () => void; preset: Invite | null }) {
  const invite = useInvite(orgId);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('3');
  const [days, setDays] = useState<number | string>(7);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sent, setSent] = useState<Invite | null>(null);
  const [lastPreset, setLastPreset] = useState<Invite | null>(null);
  if (preset !== lastPreset) {
    setLastPreset(preset);
    if (preset) {
      setEmail(preset.invitee_email);
      setRole(String(preset.role_id));
    }
  }
  const close = () => {
    setEmail('');
    setRole('3');
    setDays(7);
    setErrors({});
    setSent(null);
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next: Record<string, string> = {};
    if (!EMAIL.test(email.trim())) next.email = 'Enter a valid e-mail address.';
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > 30) next.expires_in_days = 'Between 1 and 30 days.';
    setErrors(next);
    if (Object.keys(next).length) return;
    try {
      setSent(await invite.mutateAsync({ email: email.trim(), role_id: Number(role), expires_in_days: days as number }));
    } catch (err) {
      setErrors(err instanceof ApiError && Object.keys(err.fieldErrors).length ? err.fieldErrors : { form: errorMessage(err) });
    }
  };
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
            <TextInput
              label="E-mail address"
              type="email"
              required
              value={email}
              readOnly={!!preset}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={errors.email}
              data-autofocus
            />
            <Select label="Role" data={ASSIGNABLE_ROLES} value={role} onChange={(v) => v && setRole(v)} allowDeselect={false} />
            <NumberInput label="Expires after (days)" min={1} max={30} allowDecimal={false} value={days} onChange={setDays} error={errors.expires_in_days} />
            {errors.form && (
              <Text c="red.9" size="sm" role="alert">
                {errors.form}
              </Text>
            )}
            <Button type="submit" leftSection={<IconSend size={16} aria-hidden />} loading={invite.isPending}>
              {preset ? 'Resend invitation' : 'Send invitation'}
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

export function InvitesPanel({ orgId, me }: { orgId: number; me: Me }) {
  const invites = useQuery(orgQueries.invites(orgId));
  const cancel = useCancelInvite(orgId);
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
        <PermissionGate reason={writeReason}>
          <Button leftSection={<IconMail size={16} aria-hidden />} onClick={() => openInvite(null)} disabled={!!writeReason}>
            Invite by e-mail
          </Button>
        </PermissionGate>
      </Group>
      {invites.isPending ? (
        <Stack gap="xs">
          {[0, 1].map((i) => (
            <Skeleton key={i} height={44} />
          ))}
        </Stack>
      ) : invites.isError ? (
        <ErrorAlert error={invites.error} onRetry={() => void invites.refetch()} title="Could not load the invitations" />
      ) : invites.data.length === 0 ? (
        <EmptyState icon={<IconMail />} title="No pending invitations" description="Invite people by e-mail; they join when they accept the link." />
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="sm" striped aria-label="Pending invitations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Invited by</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invites.data.map((inv) => (
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
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <PermissionGate reason={writeReason}>
                        <ActionIcon variant="subtle" disabled={!!writeReason} aria-label={`Resend invitation to ${inv.invitee_email}`} onClick={() => openInvite(inv)}>
                          <IconRefresh size={16} aria-hidden />
                        </ActionIcon>
                      </PermissionGate>
                      <PermissionGate reason={writeReason}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          disabled={!!writeReason}
                          aria-label={`Cancel invitation to ${inv.invitee_email}`}
                          onClick={() =>
                            confirmDelete({
                              title: 'Cancel invitation',
                              message: `Cancel the invitation to ${inv.invitee_email}? Its link stops working.`,
                              confirmLabel: 'Cancel invitation',
                              onConfirm: () => cancel.mutate(inv.id),
                            })
                          }
                        >
                          <IconX size={16} aria-hidden />
                        </ActionIcon>
                      </PermissionGate>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <InviteModal orgId={orgId} opened={opened} onClose={modal.close} preset={preset} />
    </Stack>
  );
}
