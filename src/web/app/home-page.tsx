import { Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ErrorAlert } from '../components/error-alert.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { displayName, useMe, workspaceName } from '../lib/use-me.ts';
import { navItemsFor } from './nav.ts';
import { useWorkspace } from '../lib/workspace.ts';

const credits = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

export function HomePage() {
  const workspace = useWorkspace();
  const me = useMe();
  if (me.isPending) {
    return (
      <Stack>
        <Skeleton height={36} width={280} />
        <Skeleton height={120} />
      </Stack>
    );
  }
  if (me.isError) return <ErrorAlert error={me.error} onRetry={() => void me.refetch()} />;
  const data = me.data;
  const areas = navItemsFor(workspace.organizationId, data.key.permissions).filter((item) => item.to !== '/');
  return (
    <>
      <PageHeader title={`Welcome, ${data.first || displayName(data)}`} description={`You are working in ${workspaceName(data)}.`} />
      <SimpleGrid cols={{ base: 1, sm: 3 }} mb="xl">
        <Card withBorder>
          <Text size="sm" c="dimmed">
            Workspace
          </Text>
          <Text fw={600} size="lg">
            {workspaceName(data)}
          </Text>
          {data.key.role_name && <Text size="sm">Role: {data.key.role_name}</Text>}
        </Card>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            Credits
          </Text>
          <Text fw={600} size="lg">
            {credits.format(data.credits)}
          </Text>
        </Card>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            Signed in as
          </Text>
          <Text fw={600} size="lg" truncate>
            {displayName(data)}
          </Text>
          {data.email && <Text size="sm">{data.email}</Text>}
        </Card>
      </SimpleGrid>
      {areas.length > 0 && (
        <>
          <Title order={2} size="h4" mb="sm">
            Go to
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {areas.map((item) => (
              <Card key={item.to} withBorder component={Link} to={workspace.path(item.to)}>
                <Group>
                  <ThemeIcon variant="light" aria-hidden>
                    <item.icon size={18} />
                  </ThemeIcon>
                  <Text fw={600}>{item.label}</Text>
                </Group>
              </Card>
            ))}
          </SimpleGrid>
        </>
      )}
    </>
  );
}
