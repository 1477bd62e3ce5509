import { Button, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useWorkspace } from '../lib/workspace.ts';

export function NotFoundPage() {
  const workspace = useWorkspace();
  const location = useLocation();
  return (
    <Stack align="flex-start" gap="md" py="xl">
      <Title order={1} size="h2">
        Page not found
      </Title>
      <Text c="dimmed">
        There is no page at <strong>{location.pathname}</strong>. It may have moved, or the link has a typo.
      </Text>
      <Button component={Link} to={workspace.path('/')}>
        Go to the overview
      </Button>
    </Stack>
  );
}
