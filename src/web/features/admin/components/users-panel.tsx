import { Badge, Button, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { AdminUser } from '../../../../shared/admin.ts';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { ListSkeleton, ListTable, RowActions, SearchInput } from '../../../components/list-kit.tsx';
import { adminMutations, adminQueries } from '../../../data/admin.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useApiMutation } from '../../../lib/mutation.ts';
import { GrantCreditsModal, type GrantTarget } from './grant-credits-modal.tsx';
import { ListPager, useAdminList } from './paged-list.tsx';

const failed = (error: Error) => notifications.show({ color: 'red', message: errorMessage(error), closeButtonProps: { 'aria-label': 'Dismiss notification' } });
const done = (message: string) => notifications.show({ color: 'teal', message, closeButtonProps: { 'aria-label': 'Dismiss notification' } });

/** Every person of the instance: find them, grant them credits, disable or enable their account. */
export function UsersPanel({ selfId }: { selfId: string }) {
  const list = useAdminList();
  const users = useQuery(adminQueries.users(list.params));
  const [granting, setGranting] = useState<GrantTarget | null>(null);
  const disable = useApiMutation(adminMutations.disable, {
    onSuccess: (u) => done(`${u.email ?? 'The account'} is disabled: its keys and sessions are refused.`),
    onError: failed,
  });
  const enable = useApiMutation(adminMutations.enable, { onSuccess: (u) => done(`${u.email ?? 'The account'} is enabled again.`), onError: failed });

  const askDisable = (user: AdminUser) =>
    confirmDelete({
      title: `Disable ${user.email ?? user.name ?? 'this account'}?`,
      message:
        'From now on, their API keys (personal and organization ones) and browser sessions are refused, and no sign-in link is sent to them. Their data, organizations and credits stay; you can enable the account again.',
      confirmLabel: 'Disable account',
      onConfirm: () => disable.mutate(user.user_id),
    });

  return (
    <Stack>
      <SearchInput label="Search people" placeholder="E-mail or name" value={list.input} onChange={list.setInput} />
      {users.isPending ? (
        <ListSkeleton rows={5} height={44} label="Loading people" />
      ) : users.isError ? (
        <ErrorAlert error={users.error} onRetry={() => void users.refetch()} />
      ) : users.data.items.length === 0 ? (
        <EmptyState
          icon={<IconUsers size={24} />}
          title={list.params.search ? 'Nobody matches this search' : 'No people yet'}
          description={list.params.search ? 'Search by part of an e-mail address or a name.' : 'Create a user to add the first person.'}
        />
      ) : (
        <div>
          <ListTable label="People" columns={['Name', 'E-mail', 'Status', 'Organizations', 'Credits', 'Joined']} actions minWidth={900}>
            {users.data.items.map((user) => (
              <Table.Tr key={user.user_id}>
                <Table.Td>{user.name ?? '—'}</Table.Td>
                <Table.Td>{user.email ?? '—'}</Table.Td>
                {/* Wide enough for both badges: a squeezed column cut "Active" to "ACTI…". */}
                <Table.Td style={{ minWidth: 150 }}>
                  <Group gap={4} wrap="nowrap">
                    {user.disabled_at ? (
                      <Badge color="red" variant="filled" autoContrast style={{ flexShrink: 0 }}>
                        Disabled
                      </Badge>
                    ) : (
                      <Badge color="teal.9" variant="filled" style={{ flexShrink: 0 }}>
                        Active
                      </Badge>
                    )}
                    {user.is_admin && (
                      <Badge variant="outline" style={{ flexShrink: 0 }}>
                        Admin
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{user.organization_count}</Table.Td>
                <Table.Td>{user.credits.toLocaleString()}</Table.Td>
                <Table.Td>
                  <Text size="sm">{new Date(user.created_at).toLocaleDateString()}</Text>
                </Table.Td>
                <RowActions>
                  <Button
                    size="xs"
                    variant="light"
                    aria-label={`Grant credits to ${user.email ?? user.name}`}
                    onClick={() => setGranting({ kind: 'user', userId: user.user_id, label: user.email ?? user.name ?? user.user_id, credits: user.credits })}
                  >
                    Grant credits
                  </Button>
                  {user.disabled_at ? (
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Enable ${user.email ?? user.name}`}
                      loading={enable.isPending && enable.variables === user.user_id}
                      onClick={() => enable.mutate(user.user_id)}
                    >
                      Enable
                    </Button>
                  ) : user.user_id === selfId ? (
                    <Tooltip label="You cannot disable your own account">
                      <Button size="xs" variant="default" c="var(--mantine-color-error)" data-disabled aria-disabled onClick={(e) => e.preventDefault()}>
                        Disable
                      </Button>
                    </Tooltip>
                  ) : (
                    <Button
                      size="xs"
                      // The theme's error colour: AA contrast in both schemes (Mantine's red.6 is not).
                      variant="default"
                      c="var(--mantine-color-error)"
                      aria-label={`Disable ${user.email ?? user.name}`}
                      loading={disable.isPending && disable.variables === user.user_id}
                      onClick={() => askDisable(user)}
                    >
                      Disable
                    </Button>
                  )}
                </RowActions>
              </Table.Tr>
            ))}
          </ListTable>
          <ListPager total={users.data.total} page={users.data.page} perPage={users.data.per_page} onChange={list.setPage} what="people" />
        </div>
      )}
      {granting && <GrantCreditsModal target={granting} onClose={() => setGranting(null)} />}
    </Stack>
  );
}
