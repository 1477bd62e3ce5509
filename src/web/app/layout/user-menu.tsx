import { Avatar, Menu, Skeleton, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDevices, IconLogout, IconShieldCog, IconUser } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { sessionMutations } from '../../data/sessions.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useApiMutation } from '../../lib/mutation.ts';
import { sessionStore, useSession } from '../../lib/session.ts';
import { displayName, useMe } from '../../lib/use-me.ts';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();
}

export function UserMenu() {
  const me = useMe();
  const { cookie } = useSession();
  const navigate = useNavigate();
  const leave = (reason: string) => {
    sessionStore.signOut(reason);
    navigate('/sign-in', { replace: true });
  };
  const failed = (error: Error) => notifications.show({ color: 'red', message: `Could not sign out: ${errorMessage(error)}` });
  const signOut = useApiMutation(sessionMutations.signOut, { onSuccess: () => leave('You signed out.'), onError: failed });
  const everywhere = useApiMutation(sessionMutations.signOutEverywhere, {
    onSuccess: (result) => leave(result.message),
    onError: failed,
  });
  if (me.isPending) return <Skeleton height={34} width={34} circle />;
  const name = me.data ? displayName(me.data) : 'Account';
  return (
    <Menu position="bottom-end" width={240} withArrow>
      <Menu.Target>
        <UnstyledButton style={{ borderRadius: '50%' }}>
          <VisuallyHidden>Account menu for {name}</VisuallyHidden>
          <Avatar color="blue" radius="xl" size={34} aria-hidden>
            {me.data ? initials(name) : <IconUser size={18} aria-hidden />}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)">
            {name}
          </Text>
          {me.data?.email && <Text size="xs">{me.data.email}</Text>}
        </Menu.Label>
        <Menu.Divider />
        {me.data?.is_admin && (
          <>
            <Menu.Item component={Link} to="/admin" leftSection={<IconShieldCog size={16} aria-hidden />}>
              Admin
            </Menu.Item>
            <Menu.Divider />
          </>
        )}
        <Menu.Item
          leftSection={<IconLogout size={16} aria-hidden />}
          // Signed in by e-mail link, the server ends the session (and clears its cookie in every tab); with
          // a key, the tab forgets it.
          onClick={() => (cookie ? signOut.mutate() : leave('You signed out.'))}
        >
          Sign out
        </Menu.Item>
        {cookie && (
          <Menu.Item leftSection={<IconDevices size={16} aria-hidden />} onClick={() => everywhere.mutate()}>
            Sign out everywhere
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
