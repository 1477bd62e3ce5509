import { Skeleton, Table, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconMinus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { PERMISSIONS } from '../../../../shared/roles.ts';
import { organizationQueries } from '../../../data/organizations.ts';

/** The four roles × every permission, as a readable table. */
export function RolesMatrix({ orgId }: { orgId: number }) {
  const roles = useQuery(organizationQueries.roles(orgId));
  if (roles.isPending) return <Skeleton height={320} />;
  if (roles.isError) return <ErrorAlert error={roles.error} onRetry={() => void roles.refetch()} title="Could not load the roles" />;
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table striped withTableBorder aria-label="Permissions by role">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Permission</Table.Th>
            {roles.data.map((r) => (
              <Table.Th key={r.id} scope="col" ta="center">
                {r.name}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {PERMISSIONS.map((p) => (
            <Table.Tr key={p}>
              <Table.Th scope="row" fw={500}>
                <code>{p}</code>
              </Table.Th>
              {roles.data.map((r) => {
                const has = r.permissions.includes(p);
                return (
                  <Table.Td key={r.id} ta="center">
                    <ThemeIcon size="sm" radius="xl" variant="light" color={has ? 'teal' : 'gray'} aria-hidden>
                      {has ? <IconCheck size={14} /> : <IconMinus size={14} />}
                    </ThemeIcon>
                    <VisuallyHidden>{has ? 'allowed' : 'not allowed'}</VisuallyHidden>
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
