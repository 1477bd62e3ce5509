import { Button, Center, Code, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { useWorkspace } from '../lib/workspace.ts';

/** Any error thrown while rendering a route: say so plainly, offer a way back, hide internals. */
export function RouteError() {
  const workspace = useWorkspace();
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : null;
  const chunkFailed = error instanceof Error && /dynamically imported module|Importing a module script failed/i.test(error.message);
  return (
    <Center mih="60vh" p="xl">
      <Stack align="center" gap="md" maw={520} ta="center">
        <Title order={1} size="h2">
          {status === 404 ? 'Page not found' : 'Something went wrong'}
        </Title>
        <Text c="dimmed">
          {chunkFailed
            ? 'A new version of the dashboard was deployed. Reload to get it.'
            : 'This page hit an unexpected error. Reloading usually helps; your data is safe.'}
        </Text>
        {status && <Code>{status}</Code>}
        <Stack gap="xs">
          <Button onClick={() => window.location.reload()}>Reload</Button>
          <Button component={Link} to={workspace.path('/')} variant="subtle">
            Go to the overview
          </Button>
        </Stack>
      </Stack>
    </Center>
  );
}
