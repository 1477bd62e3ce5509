import { Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * Every page's title (the page's one h1), a line saying what the page is for, and its main actions.
 * With `focus` the title takes the keyboard focus when it appears (after an action that opened the page,
 * so a screen reader starts there and Tab goes on from the top).
 */
export function PageHeader({ title, description, actions, focus }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; focus?: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, [focus]);
  return (
    <Group justify="space-between" align="flex-start" mb="lg" wrap="wrap" gap="md">
      <Stack gap={4}>
        <Title order={1} size="h2" ref={heading} tabIndex={focus ? -1 : undefined} style={focus ? { outline: 'none' } : undefined}>
          {title}
        </Title>
        {description && <Text c="dimmed">{description}</Text>}
      </Stack>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}
