import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';

// A native title rather than Mantine's Tooltip: the shell's first download stays within its budget.
export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: true });
  const next = computed === 'dark' ? 'light' : 'dark';
  const label = `Switch to ${next} mode`;
  return (
    <ActionIcon variant="default" size="lg" onClick={() => setColorScheme(next)} aria-label={label} title={label}>
      {computed === 'dark' ? <IconSun size={18} aria-hidden /> : <IconMoon size={18} aria-hidden />}
    </ActionIcon>
  );
}
