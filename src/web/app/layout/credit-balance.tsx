import { Group, Skeleton, Text } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import { useMe, workspaceName } from '../../lib/use-me.ts';

const format = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** The current workspace's credit balance, in the header of every page (hiring spends it). */
export function CreditBalance() {
  const me = useMe();
  if (me.isPending) return <Skeleton height={24} width={80} />;
  if (me.isError) return null;
  const where = workspaceName(me.data);
  return (
    <Group gap={6} wrap="nowrap" role="status" aria-label={`${format.format(me.data.credits)} credits in ${where}`} title={`Credits of ${where}`}>
      <IconCoins size={18} aria-hidden />
      <Text size="sm" fw={600} aria-hidden>
        {format.format(me.data.credits)}
      </Text>
      <Text size="sm" c="dimmed" visibleFrom="sm" aria-hidden>
        credits
      </Text>
    </Group>
  );
}
