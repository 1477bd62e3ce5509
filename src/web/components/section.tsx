import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled part of a long page or form; a landmark region named by its title (and linkable by `id`). */
export function Section({ id, title, description, children }: { id: string; title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Paper component="section" withBorder radius="md" p="lg" id={id} aria-labelledby={`${id}-title`} style={{ scrollMarginTop: 80 }}>
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id={`${id}-title`}>
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed" mt={2}>
              {description}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
