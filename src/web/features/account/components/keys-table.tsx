import { Badge, Code, Table, Text } from '@mantine/core';
import { IconKeyOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { ApiKey } from '../../../../shared/keys.ts';
import { DeleteRowButton } from '../../../components/delete-row-button.tsx';
import { ListTable, RowActions } from '../../../components/list-kit.tsx';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A key's name as lists show it (keys issued before names: by sign-up, the CLI or a membership). */
export const keyName = (key: Pick<ApiKey, 'name'>) => key.name ?? 'Unnamed key';

/**
 * Keys as a table: name, prefix, created, last used (coarse), status, and a revoke button that asks
 * first. `extra` adds columns (an organization key's holder and permissions).
 */
export function KeysTable<K extends ApiKey>({
  keys,
  label,
  extra,
  revokeReason,
  onRevoke,
}: {
  keys: K[];
  label: string;
  extra?: { columns: string[]; cells: (key: K) => ReactNode };
  revokeReason: string | null;
  onRevoke: (key: K) => void;
}) {
  return (
    <ListTable columns={['Name', 'Prefix', ...(extra?.columns ?? []), 'Created', 'Last used', 'Status']} actions minWidth={760} label={label}>
      {keys.map((key) => (
        <Table.Tr key={key.id}>
          <Table.Td fw={500}>{keyName(key)}</Table.Td>
          <Table.Td>
            <Code>{key.prefix}…</Code>
          </Table.Td>
          {extra?.cells(key)}
          <Table.Td>{when(key.created_at)}</Table.Td>
          <Table.Td>{key.last_used_at ? when(key.last_used_at) : <Text c="dimmed">Never</Text>}</Table.Td>
          <Table.Td>
            {key.revoked_at ? (
              <Badge color="gray.7" variant="filled" title={`Revoked ${when(key.revoked_at)}`}>
                Revoked
              </Badge>
            ) : (
              <Badge color="teal.9" variant="filled">
                Active
              </Badge>
            )}
          </Table.Td>
          <RowActions>
            {!key.revoked_at && (
              <DeleteRowButton
                label={`Revoke ${keyName(key)}`}
                reason={revokeReason}
                tooltip
                icon={<IconKeyOff size={16} aria-hidden />}
                confirm={{
                  title: `Revoke ${keyName(key)}?`,
                  message: `Anything that uses the key ${key.prefix}… gets "Invalid API key." from now on. This cannot be undone.`,
                  confirmLabel: 'Revoke key',
                  onConfirm: () => onRevoke(key),
                }}
              />
            )}
          </RowActions>
        </Table.Tr>
      ))}
    </ListTable>
  );
}
