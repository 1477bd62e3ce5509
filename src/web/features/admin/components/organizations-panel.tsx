import { Button, Stack, Table, Text } from '@mantine/core';
import { IconBuilding } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { ListSkeleton, ListTable, RowActions, SearchInput } from '../../../components/list-kit.tsx';
import { adminQueries } from '../../../data/admin.ts';
import { GrantCreditsModal, type GrantTarget } from './grant-credits-modal.tsx';
import { ListPager, useAdminList } from './paged-list.tsx';

/** Every organization of the instance, with its owner, members and credits; grant it credits. */
export function OrganizationsPanel() {
  const list = useAdminList();
  const organizations = useQuery(adminQueries.organizations(list.params));
  const [granting, setGranting] = useState<GrantTarget | null>(null);
  return (
    <Stack>
      <SearchInput label="Search organizations" placeholder="Name, or the owner’s e-mail or name" value={list.input} onChange={list.setInput} />
      {organizations.isPending ? (
        <ListSkeleton rows={5} height={44} label="Loading organizations" />
      ) : organizations.isError ? (
        <ErrorAlert error={organizations.error} onRetry={() => void organizations.refetch()} />
      ) : organizations.data.items.length === 0 ? (
        <EmptyState
          icon={<IconBuilding size={24} />}
          title={list.params.search ? 'No organization matches this search' : 'No organizations yet'}
          description={list.params.search ? 'Search by part of its name, or of its owner’s e-mail or name.' : 'People create organizations from their Organization page.'}
        />
      ) : (
        <div>
          <ListTable label="Organizations" columns={['Name', 'Owner', 'Members', 'Credits', 'Created']} actions minWidth={800}>
            {organizations.data.items.map((org) => (
              <Table.Tr key={org.id}>
                <Table.Td>{org.name}</Table.Td>
                <Table.Td>
                  <Text size="sm">{org.owner_name ?? org.owner_email ?? org.owner_id}</Text>
                  {org.owner_name && org.owner_email && (
                    <Text size="xs" c="dimmed">
                      {org.owner_email}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{org.member_count}</Table.Td>
                <Table.Td>{org.credits.toLocaleString()}</Table.Td>
                <Table.Td>
                  <Text size="sm">{new Date(org.created_at).toLocaleDateString()}</Text>
                </Table.Td>
                <RowActions>
                  <Button
                    size="xs"
                    variant="light"
                    aria-label={`Grant credits to ${org.name}`}
                    onClick={() => setGranting({ kind: 'organization', organizationId: org.id, label: org.name, credits: org.credits })}
                  >
                    Grant credits
                  </Button>
                </RowActions>
              </Table.Tr>
            ))}
          </ListTable>
          <ListPager total={organizations.data.total} page={organizations.data.page} perPage={organizations.data.per_page} onChange={list.setPage} what="organizations" />
        </div>
      )}
      {granting && <GrantCreditsModal target={granting} onClose={() => setGranting(null)} />}
    </Stack>
  );
}
