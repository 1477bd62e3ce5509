import { Button, Menu, Skeleton, VisuallyHidden } from '@mantine/core';
import { IconBuilding, IconCheck, IconChevronDown, IconPlus, IconUser } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { samePageIn } from '../../../../shared/pages.ts';
import { organizationQueries } from '../../../data/organizations.ts';
import { useMe, workspaceName } from '../../../lib/use-me.ts';
import { useWorkspace } from '../../../lib/workspace.ts';

// The dialog is its own chunk: the shell's first screen stays within its budget.
const CreateOrganizationModal = lazy(() => import('./create-organization-modal.tsx'));

/**
 * Header menu: the personal workspace and every organization the person belongs to, with their role.
 * Each is a link to the same page in that workspace (its address: opens in a new tab too).
 */
export function WorkspaceSwitcher() {
  const me = useMe();
  const orgs = useQuery(organizationQueries.mine());
  const { organizationId } = useWorkspace();
  const { pathname } = useLocation();
  const [creating, setCreating] = useState(false);

  if (me.isPending) return <Skeleton height={30} width={160} />;
  const current = me.data ? workspaceName(me.data) : 'Workspace';
  const role = me.data?.key.role_name;
  const currentMark = <IconCheck size={16} aria-label="current" />;

  return (
    <>
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button
            variant="light"
            size="compact-md"
            rightSection={<IconChevronDown size={14} aria-hidden />}
            // On a phone the header keeps room for the account menu: a long name is cut (the title shows it whole).
            maw={{ base: '100%', sm: 360 }}
            miw={0}
            title={`${current}${role ? ` · ${role}` : ''}`}
          >
            {/* The name read out starts with what is shown (WCAG 2.5.3 label in name); cut with an ellipsis when narrow. */}
            <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              {current}
              {role ? ` · ${role}` : ''}
            </span>
            <VisuallyHidden component="span">: switch workspace</VisuallyHidden>
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Workspaces</Menu.Label>
          <Menu.Item
            component={Link}
            to={samePageIn(pathname, null)}
            leftSection={<IconUser size={16} aria-hidden />}
            rightSection={organizationId === null ? currentMark : null}
          >
            Personal workspace
          </Menu.Item>
          {orgs.isPending && <Skeleton height={28} my={4} />}
          {orgs.data?.map((o) => (
            <Menu.Item
              key={o.id}
              component={Link}
              to={samePageIn(pathname, o.id)}
              leftSection={<IconBuilding size={16} aria-hidden />}
              rightSection={o.id === organizationId ? currentMark : null}
            >
              {o.name} · {o.role_name}
            </Menu.Item>
          ))}
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
