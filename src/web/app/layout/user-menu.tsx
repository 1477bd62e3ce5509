import { Avatar, Menu, Skeleton, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconLogout, IconUser } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { sessionStore } from '../../lib/session.ts';
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
  const navigate = useNavigate();
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
        <Menu.Item
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={() => {
            sessionStore.signOut('You signed out.');
            navigate('/sign-in', { replace: true });
          }}
        >
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
