import { Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';

/** Navigation state that asks the page arrived at to move focus to its heading (after a flow that landed there). */
export interface FocusHeadingState {
  focusHeading?: boolean;
}

/**
 * Every page's title (the page's one h1), a line saying what the page is for, and its main actions. A
 * navigation with `state: { focusHeading: true }` puts focus on the title, so that a screen reader starts
 * reading the page the person landed on (joining an organization lands on its home page).
 */
export function PageHeader({ title, description, actions }: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const focusHeading = (useLocation().state as FocusHeadingState | null)?.focusHeading === true;
  useEffect(() => {
    if (focusHeading) heading.current?.focus();
  }, [focusHeading]);
  return (
    <Group justify="space-between" align="flex-start" mb="lg" wrap="wrap" gap="md">
      <Stack gap={4}>
        <Title order={1} size="h2" ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
          {title}
        </Title>
        {description && <Text c="dimmed">{description}</Text>}
      </Stack>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}
