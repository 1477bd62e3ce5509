import { Notifications } from '@mantine/notifications';

/** Where notifications appear; loaded with the first one (providers.tsx). */
export function NotificationsContainer() {
  return <Notifications position="top-right" />;
}
