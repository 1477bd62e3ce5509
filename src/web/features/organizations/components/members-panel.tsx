import { ActionIcon, Avatar, Badge, Button, Group, Modal, Select, Skeleton, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconSearch, IconTrash, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useMemo, useState, type FormEvent } from 'react';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { SecretReveal } from '../../../components/secret-reveal.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import type { Me } from '../../../lib/me-query.ts';
import { missingPermission } from '../../../lib/use-me.ts';
import { useAddMember, useChangeRole, useRemoveMember } from '../api.ts';
import { orgQueries } from '../queries.ts';
import { PermissionGate } from '../../../components/permission-gate.tsx';
import { useDeferredQuery } from '../../../lib/use-deferred-query.ts';

export const ASSIGNABLE_ROLES = [
  { value: '2', label: 'Admin' },
  { value: '3', label: 'Member' },
  { value: '4', label: 'Viewer' },
];

const ROLE_COLORS: Record<string, string> = { Owner: 'grape', Admin: 'blue', Member: 'teal', Viewer: 'gray' };

function initials(name: string | null, email: string | null) {
  const source = name || email || '?';
  return source
    .split(/[\s@.]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((s) => s[0]!.toUpperCase())
    .join('');
}

function AddMemberModal({ orgId, opened, onClose }: { orgId: number; opened: boolean; onClose: () => void }) {
  const add = useAddMember(orgId);
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState('3');
  const [error, setError] = useState<string | null>(null);
  const [key, setKey] = useState<string | null>(null);
  const close = () => {
    setUserId('');
    setRole('3');
    setError(null);
    setKey(null);
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!userId.trim()) return setError('Enter the user id.');
    try {
      const res = await add.mutateAsync({ user_id: userId.trim(), role_id: Number(role) });
      setKey(res.api_key);
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <Modal opened={opened} onClose={close} title="Add member by user id" closeButtonProps={{ 'aria-label': 'Close' }}>
      {key ? (
        <Stack>
          <SecretReveal label="New member’s organization API key" value={key} note="Give it to the new member. It is shown only once." />
          <Button onClick={close}>Done</Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput label="User id" required value={userId} onChange={(e) => setUserId(e.currentTarget.value)} error={error} data-autofocus />
            <Select label="Role" data={ASSIGNABLE_ROLES} value={role} onChange={(v) => v && setRole(v)} allowDeselect={false} />
            <Button type="submit" loading={add.isPending}>
              Add member
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

export function MembersPanel({ orgId, me }: { orgId: number; me: Me }) {
  const members = useDeferredQuery(orgQueries.members(orgId));
  const change = useChangeRole(orgId);
  const remove = useRemoveMember(orgId);
  const [search, setSearch] = useState('');
  const [roleFilter, setRoleFilter] = useState<string | null>(null);
  const [addOpened, add] = useDisclosure(false);
  const writeReason = missingPermission(me, 'org:write');

  const rows = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (members.data ?? []).filter(
      (m) =>
        (!roleFilter || m.role_name === roleFilter) &&
        (!q || (m.name ?? '').toLowerCase().includes(q) || (m.email ?? '').toLowerCase().includes(q)),
    );
  }, [members.data, search, roleFilter]);

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TextInput
            label="Search members"
            placeholder="Name or e-mail"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
          <Select
            label="Role"
            placeholder="All roles"
            clearable
            data={['Owner', 'Admin', 'Member', 'Viewer']}
            value={roleFilter}
            onChange={setRoleFilter}
          />
        </Group>
        <PermissionGate reason={writeReason}>
          <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={add.open} disabled={!!writeReason}>
            Add member
          </Button>
        </PermissionGate>
      </Group>
      {members.isPending ? (
        <Stack gap="xs">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={44} />
          ))}
        </Stack>
      ) : members.isError ? (
        <ErrorAlert error={members.error} onRetry={() => void members.refetch()} title="Could not load the members" />
      ) : rows.length === 0 ? (
        <EmptyState icon={<IconUsers />} title="No members match" description="Change the search or the role filter." />
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="sm" striped aria-label="Members">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Joined</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((m) => {
                const isOwner = m.role_id === 1;
                const label = m.name ?? m.email ?? m.user_id;
                const rowReason = writeReason ?? (isOwner ? 'The owner’s role cannot be changed and the owner cannot be removed.' : null);
                return (
                  <Table.Tr key={m.id}>
                    <Table.Td>
                      <Group gap="sm" wrap="nowrap">
                        <Avatar src={m.image} radius="xl" size="sm" alt="">
                          {initials(m.name, m.email)}
                        </Avatar>
                        <Text size="sm" fw={500}>
                          {m.name ?? '—'}
                        </Text>
                      </Group>
                    </Table.Td>
                    <Table.Td>{m.email ?? '—'}</Table.Td>
                    <Table.Td>
                      {isOwner || writeReason ? (
                        <Badge color={ROLE_COLORS[m.role_name ?? ''] ?? 'gray'} variant="light">
                          {m.role_name}
                        </Badge>
                      ) : (
                        <Select
                          aria-label={`Role of ${label}`}
                          data={ASSIGNABLE_ROLES}
                          value={String(m.role_id)}
                          allowDeselect={false}
                          w={130}
                          size="xs"
                          disabled={change.isPending}
                          onChange={(v) => v && Number(v) !== m.role_id && change.mutate({ user_id: m.user_id, role_id: Number(v) })}
                        />
                      )}
                    </Table.Td>
                    <Table.Td>{new Date(m.created_at).toLocaleDateString()}</Table.Td>
                    <Table.Td>
                      <PermissionGate reason={rowReason}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          disabled={!!rowReason}
                          aria-label={`Remove ${label}`}
                          onClick={() =>
                            confirmDelete({
                              title: 'Remove member',
                              message: `Remove ${label} from the organization? Their organization API key stops working immediately.`,
                              confirmLabel: 'Remove member',
                              onConfirm: () => remove.mutate(m.user_id),
                            })
                          }
                        >
                          <IconTrash size={16} aria-hidden />
                        </ActionIcon>
                      </PermissionGate>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <AddMemberModal orgId={orgId} opened={addOpened} onClose={add.close} />
    </Stack>
  );
}
