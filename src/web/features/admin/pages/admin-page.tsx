import { Button, Skeleton, Stack, Tabs } from '@mantine/core';
import { IconBuilding, IconCoins, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { NotAllowed } from '../../../components/not-allowed.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useMe } from '../../../lib/use-me.ts';
import { GrantsPanel } from '../components/grants-panel.tsx';
import { OrganizationsPanel } from '../components/organizations-panel.tsx';
import { UsersPanel } from '../components/users-panel.tsx';

const TABS = ['people', 'organizations', 'grants'] as const;
type Tab = (typeof TABS)[number];

/** The instance administrators' area: people, organizations and credit grants (the server refuses anyone else). */
export function AdminPage() {
  const me = useMe();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab') as Tab | null;
  const tab: Tab = requested && TABS.includes(requested) ? requested : 'people';
  const title = 'Admin';

  if (me.isPending) {
    return (
      <Stack>
        <Skeleton height={36} width={240} />
        <Skeleton height={240} />
      </Stack>
    );
  }
  if (me.isError) return <ErrorAlert error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data.is_admin) {
    return (
      <NotAllowed title={title}>
        The Admin area is for the administrators of this Roster instance. Ask one of them if you need an account created, an account disabled or credits granted.
      </NotAllowed>
    );
  }
  return (
    <>
      <PageHeader
        title={title}
        description="Everyone and every organization on this Roster instance, and the credits granted to them."
        actions={
          <Button component={Link} to="/admin/users/new" leftSection={<IconUserPlus size={16} aria-hidden />}>
            Create a user
          </Button>
        }
      />
      <Tabs
        value={tab}
        keepMounted={false}
        // Each tab has its own search and page: the address keeps only the tab's.
        onChange={(value) => setParams(value && value !== 'people' ? { tab: value } : {})}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="people" leftSection={<IconUsers size={16} aria-hidden />}>
            People
          </Tabs.Tab>
          <Tabs.Tab value="organizations" leftSection={<IconBuilding size={16} aria-hidden />}>
            Organizations
          </Tabs.Tab>
          <Tabs.Tab value="grants" leftSection={<IconCoins size={16} aria-hidden />}>
            Credit grants
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="people">
          <UsersPanel selfId={me.data.user_id} />
        </Tabs.Panel>
        <Tabs.Panel value="organizations">
          <OrganizationsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="grants">
          <GrantsPanel />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
