import { Tooltip } from '@mantine/core';
import type { ReactElement } from 'react';

/** Wraps a disabled control in a tooltip that names the missing permission (the span keeps it hoverable and focusable). */
export function PermissionGate({ reason, children }: { reason: string | null; children: ReactElement }) {
  if (!reason) return children;
  return (
    <Tooltip label={reason} withArrow>
      <span tabIndex={0} style={{ display: 'inline-block' }} aria-label={reason}>
        {children}
      </span>
    </Tooltip>
  );
}
