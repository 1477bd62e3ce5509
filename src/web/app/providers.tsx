import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode } from 'react';
import { ConfirmHost } from '../components/confirm-delete.tsx';
import { MountWhenOpened } from '../components/mount-when-opened.tsx';
import { queryClient } from '../lib/query-client.ts';
import { cssVariablesResolver, theme } from './theme.ts';

// Notifications follow what the user does: their container (transition group, stacking, scroll-lock
// compatibility, ~20 KB gzip) loads with the first one instead of with every first screen.
const NotificationsContainer = lazy(async () => ({ default: (await import('./notifications-container.tsx')).NotificationsContainer }));

function NotificationsHost() {
  const { notifications } = useNotifications();
  return (
    <MountWhenOpened opened={notifications.length > 0}>
      <NotificationsContainer />
    </MountWhenOpened>
  );
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <QueryClientProvider client={queryClient}>
        <NotificationsHost />
        {children}
        <ConfirmHost />
      </QueryClientProvider>
    </MantineProvider>
  );
}
