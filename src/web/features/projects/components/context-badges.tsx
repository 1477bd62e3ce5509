import { Badge, Group, Tooltip } from '@mantine/core';
import type { Context } from '../../../../shared/projects.ts';

/** What rules a context has, at a glance (the tooltips spell them out). */
export function ContextBadges({ context, size = 'sm' }: { context: Context; size?: 'xs' | 'sm' | 'md' }) {
  const keys = context.unique_keys;
  const counters = Object.entries(context.auto_counting);
  return (
    <Group gap={4} wrap="nowrap">
      {context.is_versioned && (
        <Badge size={size} variant="light" color="grape">
          Versioned
        </Badge>
      )}
      {context.allow_duplicates ? (
        <Badge size={size} variant="light" color="gray">
          Duplicates allowed
        </Badge>
      ) : (
        <Badge size={size} variant="light" color="red">
          No duplicates
        </Badge>
      )}
      {keys.length > 0 && (
        <Tooltip label={keys.map((k) => `${k}: ${context.unique_key_types[k] === 'any' ? 'any type' : context.unique_key_types[k]}`).join(', ')} withArrow>
          <Badge size={size} variant="light" color="blue" tabIndex={0}>
            Unique: {keys.join(', ')}
          </Badge>
        </Tooltip>
      )}
      {counters.length > 0 && (
        <Tooltip label={counters.map(([c, p]) => (p ? `${c} counts within ${p}` : `${c} counts across the context`)).join('; ')} withArrow>
          <Badge size={size} variant="light" color="cyan" tabIndex={0}>
            Counting: {counters.map(([c]) => c).join(', ')}
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}
