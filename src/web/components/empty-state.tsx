import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** What an empty list says: what belongs here and how to add the first one. */
export function EmptyState({ title, description, action, icon }: { title: string; description?: ReactNode; action?: ReactNode; icon?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack align="center" gap="sm" ta="center">
        {icon && (
          <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
            {icon}
          </ThemeIcon>
        )}
        <Title order={2} size="h4">
          {title}
        </Title>
        {description && (
          <Text c="dimmed" maw={480}>
            {description}
          </Text>
        )}
        {action}
      </Stack>
    </Paper>
  );
}
