import { Badge, Button, Group, Modal, Skeleton, Stack, Table, Tabs, Text } from '@mantine/core';
import { IconBuilding, IconMail, IconSettings, IconShieldLock, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ListTable } from '../../../components/list-kit.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { organizationQueries } from '../../../data/organizations.ts';
import { Link, useSearchParams } from 'react-router';
import { workspacePath } from '../../../../shared/pages.ts';
import { useMe } from '../../../lib/use-me.ts';
import { workspaceStore } from '../../../lib/workspace.ts';
import { MembersPanel } from '../components/members-panel.tsx';

// The page opens on the members tab: the other tabs' code (their forms, and the role matrix with the
// shared role schemas and zod) arrives when one of them is opened.
const InvitesPanel = lazy(async () => ({ default: (await import('../components/invites-panel.tsx')).InvitesPanel }));
const RolesMatrix = lazy(async () => ({ default: (await import('../components/roles-matrix.tsx')).RolesMatrix }));
const OrganizationSettings = lazy(async () => ({ default: (await import('../components/organization-settings.tsx')).OrganizationSettings }));

/** In the personal workspace: the organizations the user belongs to, each a link to its workspace. */
function PersonalWorkspace({ userId }: { userId: string }) {
  const orgs = useQuery(organizationQueries.mine());
  const [settingsOf, setSettingsOf] = useState<number | null>(null);
  if (orgs.isPending) return <Skeleton height={160} />;
  if (orgs.isError) return <ErrorAlert error={orgs.error} onRetry={() => void orgs.refetch()} />;
  if (orgs.data.length === 0) {
    return (
      <EmptyState
        icon={<IconBuilding />}
        title="You are in your personal workspace"
        description="Create an organization from the workspace menu in the header, or accept an invitation, to manage members here."
      />
    );
  }
  return (
    <Stack>
      <Text>Members and invitations are managed in the organization’s workspace. Organizations you belong to:</Text>
      <ListTable label="Your organizations" columns={['Organization', 'Your role', 'Members', 'Workspace', 'Settings']} minWidth={680}>
        {orgs.data.map((o) => (
          <Table.Tr key={o.id}>
            <Table.Td>{o.name}</Table.Td>
            <Table.Td>
              {/* A badge truncates to "O." when its cell is squeezed: the role is never cut. */}
              <Badge variant="light" style={{ flexShrink: 0, overflow: 'visible' }}>
                {o.role_name}
              </Badge>
            </Table.Td>
            <Table.Td>{o.member_count}</Table.Td>
            <Table.Td>
              <Button component={Link} to={workspacePath(o.id, '/organization')} size="xs" variant="light">
                Open {o.name}
              </Button>
            </Table.Td>
            <Table.Td>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconSettings size={14} aria-hidden />}
                onClick={() => setSettingsOf(o.id)}
                aria-label={`Settings of ${o.name}`}
              >
                Settings
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <OrganizationSettingsModal organization={orgs.data.find((o) => o.id === settingsOf) ?? null} userId={userId} onClose={() => setSettingsOf(null)} />
    </Stack>
  );
}

/** One organization's settings from the personal workspace; closes itself once the organization is gone. */
function OrganizationSettingsModal({
  organization,
  userId,
  onClose,
}: {
  organization: { id: number; name: string; role_name: string } | null;
  userId: string;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={organization !== null}
      onClose={onClose}
      size="lg"
      title={organization ? `${organization.name} settings` : ''}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {organization && (
        <Suspense fallback={<Skeleton height={160} />}>
          <OrganizationSettings organization={{ id: organization.id, name: organization.name, roleName: organization.role_name }} userId={userId} onGone={onClose} />
        </Suspense>
      )}
    </Modal>
  );
}

/** What the page is for, the same while the account loads (and in the server-rendered first screen) as after. */
const ABOUT = 'Members, invitations and roles of an organization workspace.';

const TABS = ['members', 'invites', 'roles', 'settings'];

export function OrganizationPage() {
  const me = useMe();
  // The tab is in the address (`?tab=settings`): "move credits to this organization" is linked to.
  const [params, setParams] = useSearchParams();
  const tab = TABS.includes(params.get('tab') ?? '') ? params.get('tab')! : 'members';
  if (me.isPending) {
    return (
      <Stack aria-busy="true">
        <PageHeader title="Organization" description={ABOUT} />
        <Skeleton height={240} />
      </Stack>
    );
  }
  if (me.isError) return <ErrorAlert error={me.error} onRetry={() => void me.refetch()} />;
  const orgId = me.data.key.organization_id;
  if (orgId === null) {
    return (
      <Stack>
        <PageHeader title="Organization" description={ABOUT} />
        <PersonalWorkspace userId={me.data.user_id} />
      </Stack>
    );
  }
  return (
    <Stack>
      <PageHeader
        title={me.data.key.organization_name ?? 'Organization'}
        description={ABOUT}
        actions={
          <Group gap="xs">
            <Text span>Your role:</Text>
            <Badge variant="light">{me.data.key.role_name}</Badge>
          </Group>
        }
      />
      <Tabs value={tab} onChange={(value) => setParams(value && value !== 'members' ? { tab: value } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="members" leftSection={<IconUsers size={16} aria-hidden />}>
            Members
          </Tabs.Tab>
          <Tabs.Tab value="invites" leftSection={<IconMail size={16} aria-hidden />}>
            Invitations
          </Tabs.Tab>
          <Tabs.Tab value="roles" leftSection={<IconShieldLock size={16} aria-hidden />}>
            Roles
          </Tabs.Tab>
          <Tabs.Tab value="settings" leftSection={<IconSettings size={16} aria-hidden />}>
            Settings
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="members" pt="md">
          <MembersPanel orgId={orgId} me={me.data} />
        </Tabs.Panel>
        <Tabs.Panel value="invites" pt="md">
          <Suspense fallback={<Skeleton height={160} />}>
            <InvitesPanel orgId={orgId} me={me.data} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="roles" pt="md">
          <Suspense fallback={<Skeleton height={160} />}>
            <RolesMatrix orgId={orgId} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="md">
          <Suspense fallback={<Skeleton height={160} />}>
            <OrganizationSettings
              organization={{ id: orgId, name: me.data.key.organization_name ?? 'Organization', roleName: me.data.key.role_name }}
              userId={me.data.user_id}
              // Left or deleted: the layout takes the person to their personal workspace and says why.
              onGone={() => workspaceStore.leave(orgId)}
            />
          </Suspense>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
