import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** Why an invitation cannot be used here (expired, gone, another account's, sign-up closed): one look on both invite pages. */
export function InviteProblem({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} title={title} role="alert">
      {children}
    </Alert>
  );
}
