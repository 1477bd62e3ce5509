import { Badge, Stack, Table, Text } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { ListSkeleton, ListTable, SearchInput } from '../../../components/list-kit.tsx';
import { adminQueries } from '../../../data/admin.ts';
import { ListPager, useAdminList } from './paged-list.tsx';

const credits = (n: number) => n.toLocaleString(undefined, { maximumFractionDigits: 6 });

/** Every credit grant, newest first: who gave how much to whom, why, and the balance it left. */
export function GrantsPanel() {
  const list = useAdminList();
  const grants = useQuery(adminQueries.grants(list.params));
  return (
    <Stack>
      <SearchInput label="Search grants" placeholder="Recipient, reason or who granted" value={list.input} onChange={list.setInput} />
      {grants.isPending ? (
        <ListSkeleton rows={5} height={44} label="Loading credit grants" />
      ) : grants.isError ? (
        <ErrorAlert error={grants.error} onRetry={() => void grants.refetch()} />
      ) : grants.data.items.length === 0 ? (
        <EmptyState
          icon={<IconCoins size={24} />}
          title={list.params.search ? 'No grant matches this search' : 'No credits granted yet'}
          description={
            list.params.search ? 'Search by recipient, reason, or who granted.' : 'Grant credits from the People or Organizations tab; every grant is listed here.'
          }
        />
      ) : (
        <div>
          <ListTable label="Credit grants" columns={['When', 'To', 'Credits', 'Reason', 'Balance after', 'Granted by']} minWidth={900}>
            {grants.data.items.map((grant) => (
              <Table.Tr key={grant.id}>
                <Table.Td>
                  <Text size="sm">{new Date(grant.created_at).toLocaleString()}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{grant.recipient}</Text>
                  <Badge size="xs" variant="light" color={grant.organization_id !== null ? 'grape' : 'blue'}>
                    {grant.organization_id !== null ? 'Organization' : 'Person'}
                  </Badge>
                </Table.Td>
                <Table.Td>+{credits(grant.amount)}</Table.Td>
                <Table.Td style={{ maxWidth: 320, overflowWrap: 'anywhere' }}>{grant.reason}</Table.Td>
                <Table.Td>{credits(grant.balance_after)}</Table.Td>
                <Table.Td>{grant.granted_by === 'cli' ? 'Server command line' : grant.granted_by}</Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
          <ListPager total={grants.data.total} page={grants.data.page} perPage={grants.data.per_page} onChange={list.setPage} what="grants" />
        </div>
      )}
    </Stack>
  );
}
