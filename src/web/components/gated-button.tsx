import { Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PermissionGate } from './permission-gate.tsx';

/**
 * A page's or panel's main action (create, add, invite…). Without the permission (`reason`) it is a
 * disabled button with the reason on hover and focus; with it, a link when `to` is given, else a button.
 */
export function GatedButton({
  reason,
  icon,
  children,
  onClick,
  to,
  disabled = false,
}: {
  reason: string | null;
  icon: ReactNode;
  children: ReactNode;
  onClick?: () => void;
  to?: string;
  /** Disabled for another reason than a missing permission (the data it needs is not there yet). */
  disabled?: boolean;
}) {
  if (to && !reason) {
    return (
      <Button component={Link} to={to} leftSection={icon}>
        {children}
      </Button>
    );
  }
  return (
    <PermissionGate reason={reason}>
      <Button leftSection={icon} onClick={onClick} disabled={!!reason || disabled}>
        {children}
      </Button>
    </PermissionGate>
  );
}
