import { Alert, Stack } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { PageHeader } from './page-header.tsx';

/** A page the signed-in person may not use: the page's title, and why not (the server refuses it too). */
export function NotAllowed({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack maw={880}>
      <PageHeader title={title} />
      <Alert color="yellow" icon={<IconLock aria-hidden />} title="You are not allowed here" role="alert">
        {children}
      </Alert>
    </Stack>
  );
}
