import { Avatar, Badge, Group, Select, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconUserPlus, IconUsers } from '@tabler/icons-react';
import { lazy, useMemo, useState } from 'react';
import { DeleteRowButton } from '../../../components/delete-row-button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { GatedButton } from '../../../components/gated-button.tsx';
import { ListSkeleton, ListTable, QueryList, RowActions, SearchInput } from '../../../components/list-kit.tsx';
import { MountWhenOpened } from '../../../components/mount-when-opened.tsx';
import type { Me } from '../../../data/account.ts';
import { missingPermission } from '../../../lib/use-me.ts';
import { memberQueries } from '../../../data/members.ts';
import { useChangeRole, useRemoveMember } from '../api.ts';
import { ASSIGNABLE_ROLES } from './role-select.tsx';
import { useDeferredQuery } from '../../../lib/use-deferred-query.ts';

// The dialog is its own chunk (with the form kit and zod): the members tab opens without them.
const AddMemberModal = lazy(() => import('./add-member-modal.tsx'));

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

export function MembersPanel({ orgId, me }: { orgId: number; me: Me }) {
  const members = useDeferredQuery(memberQueries.list(orgId));
  const change = useChangeRole();
  const remove = useRemoveMember();
  const [search, setSearch] = useState('');
  const [roleFilter, setRoleFilter] = useState<string | null>(null);
  const [addOpened, add] = useDisclosure(false);
  const writeReason = missingPermission(me, 'org:write');

  const rows = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (members.data ?? []).filter(
      (m) => (!roleFilter || m.role_name === roleFilter) && (!q || (m.name ?? '').toLowerCase().includes(q) || (m.email ?? '').toLowerCase().includes(q)),
    );
  }, [members.data, search, roleFilter]);

  const noMatch = <EmptyState icon={<IconUsers />} title="No members match" description="Change the search or the role filter." />;

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <SearchInput label="Search members" placeholder="Name or e-mail" value={search} onChange={setSearch} />
          <Select label="Role" placeholder="All roles" clearable data={['Owner', 'Admin', 'Member', 'Viewer']} value={roleFilter} onChange={setRoleFilter} />
        </Group>
        <GatedButton reason={writeReason} icon={<IconUserPlus size={16} aria-hidden />} onClick={add.open}>
          Add member
        </GatedButton>
      </Group>
      <QueryList query={members} loading={<ListSkeleton rows={3} height={44} />} errorTitle="Could not load the members" empty={noMatch}>
        {() =>
          rows.length === 0 ? (
            noMatch
          ) : (
            <ListTable columns={['Name', 'E-mail', 'Role', 'Joined']} actions minWidth={640} label="Members">
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
                          onChange={(v) => v && Number(v) !== m.role_id && change.mutate({ organizationId: orgId, userId: m.user_id, roleId: Number(v) })}
                        />
                      )}
                    </Table.Td>
                    <Table.Td>{new Date(m.created_at).toLocaleDateString()}</Table.Td>
                    <RowActions>
                      <DeleteRowButton
                        label={`Remove ${label}`}
                        reason={rowReason}
                        confirm={{
                          title: 'Remove member',
                          message: `Remove ${label} from the organization? Their organization API key stops working immediately.`,
                          confirmLabel: 'Remove member',
                          onConfirm: () => remove.mutate({ organizationId: orgId, userId: m.user_id }),
                        }}
                      />
                    </RowActions>
                  </Table.Tr>
                );
              })}
            </ListTable>
          )
        }
      </QueryList>
      <MountWhenOpened opened={addOpened}>
        <AddMemberModal orgId={orgId} opened={addOpened} onClose={add.close} />
      </MountWhenOpened>
    </Stack>
  );
}
