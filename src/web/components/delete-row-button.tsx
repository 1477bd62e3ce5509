import { ActionIcon, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { confirmDelete, type ConfirmRequest } from './confirm-delete.tsx';
import { PermissionGate } from './permission-gate.tsx';

/**
 * The red icon button at the end of a table row that removes the row after a confirmation. Without the
 * permission (`reason`) it is disabled, with the reason on hover and focus. `tooltip` also names the action
 * on hover while enabled.
 */
export function DeleteRowButton({
  label,
  reason,
  confirm,
  icon = <IconTrash size={16} aria-hidden />,
  tooltip = false,
}: {
  label: string;
  reason: string | null;
  confirm: ConfirmRequest;
  icon?: ReactNode;
  tooltip?: boolean;
}) {
  const button = (
    <ActionIcon variant="subtle" color="red" aria-label={label} disabled={!!reason} onClick={() => confirmDelete(confirm)}>
      {icon}
    </ActionIcon>
  );
  return (
    <PermissionGate reason={reason}>
      {tooltip ? (
        <Tooltip label={label} withArrow disabled={!!reason}>
          {button}
        </Tooltip>
      ) : (
        button
      )}
    </PermissionGate>
  );
}
