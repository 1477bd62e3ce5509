import { Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';

/** Navigation state that asks the page arrived at to move focus to its heading (after a flow that landed there). */
export interface FocusHeadingState {
  focusHeading?: boolean;
}

/**
 * Every page's title (the page's one h1), a line saying what the page is for, and its main actions. The
 * title takes the keyboard focus when it appears with `focus`, or after a navigation with
 * `state: { focusHeading: true }` (after an action that opened the page: hiring, joining an organization),
 * so that a screen reader starts there and Tab goes on from the top. (Any other move to a new page focuses
 * it too: src/web/app/layout/use-focus-page-heading.ts.)
 */
export function PageHeader({ title, description, actions, focus }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; focus?: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const askedByNavigation = (useLocation().state as FocusHeadingState | null)?.focusHeading === true;
  const focusHeading = focus === true || askedByNavigation;
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
