import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A problem stated under the control it concerns, announced when it appears; nothing without one. */
export function ErrorText({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <Text size="sm" c="red.9" role="alert">
      {children}
    </Text>
  );
}
