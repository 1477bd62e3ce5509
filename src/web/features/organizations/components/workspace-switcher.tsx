import { Button, Menu, Skeleton, VisuallyHidden } from '@mantine/core';
import { IconBuilding, IconCheck, IconChevronDown, IconPlus, IconUser } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useSession } from '../../../lib/session.ts';
import { useMe, workspaceName } from '../../../lib/use-me.ts';

// The dialog is its own chunk: the shell's first screen stays within its budget.
const CreateOrganizationModal = lazy(() => import('./create-organization-modal.tsx'));

/** Header menu: the workspaces this session holds keys for, and "create organization". */
export function WorkspaceSwitcher() {
  const me = useMe();
  const session = useSession();
  const [creating, setCreating] = useState(false);

  if (me.isPending) return <Skeleton height={30} width={160} />;
  const current = me.data ? workspaceName(me.data) : 'Workspace';
  const role = me.data?.key.role_name;

  return (
    <>
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button
            variant="light"
            size="compact-md"
            rightSection={<IconChevronDown size={14} aria-hidden />}
            // On a phone the header keeps room for the account menu: a long name is cut (the title shows it whole).
            maw={{ base: 170, sm: 360 }}
            title={`${current}${role ? ` · ${role}` : ''}`}
          >
            {/* The name read out starts with what is shown (WCAG 2.5.3 label in name). */}
            {current}
            {role ? ` · ${role}` : ''}
            <VisuallyHidden component="span">: switch workspace</VisuallyHidden>
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Workspaces in this session</Menu.Label>
          {session.cookie && (
            // Signed in by e-mail link: the personal workspace is the session cookie's, not a held key.
            <Menu.Item
              leftSection={<IconUser size={16} aria-hidden />}
              rightSection={!session.key ? <IconCheck size={16} aria-label="current" /> : null}
              onClick={() => session.key && session.switchToCookie()}
            >
              Personal workspace
            </Menu.Item>
          )}
          {session.keys.map((k) => {
            const active = k.key === session.key;
            const isOrg = k.key.startsWith('rko_');
            return (
              <Menu.Item
                key={k.key}
                leftSection={isOrg ? <IconBuilding size={16} aria-hidden /> : <IconUser size={16} aria-hidden />}
                rightSection={active ? <IconCheck size={16} aria-label="current" /> : null}
                onClick={() => !active && session.switchKey(k.key)}
              >
                {isOrg ? k.label || 'Organization' : 'Personal workspace'}
              </Menu.Item>
            );
          })}
          <Menu.Divider />
          <Menu.Item leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            Create organization
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {creating && (
        <Suspense fallback={null}>
          <CreateOrganizationModal onClose={() => setCreating(false)} />
        </Suspense>
      )}
    </>
  );
}
