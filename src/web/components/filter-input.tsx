import { Box, Text, TextInput } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import type { KeyboardEvent, ReactNode } from 'react';
import { caretLine, positionText, type FilterProblem } from '../lib/filter-problem.ts';

/**
 * A text input for a filter in the logs filter language (the log explorer's, a tile's). A problem shows
 * where it is: the filter again with the bad character marked and a caret under it, and the message with
 * its place in words; the input is aria-invalid and described by the message (Mantine wires both from `error`).
 */
export function FilterInput({
  label = 'Filter',
  description,
  value,
  onChange,
  onKeyDown,
  problem,
}: {
  label?: string;
  description?: ReactNode;
  value: string;
  onChange: (text: string) => void;
  onKeyDown?: (e: KeyboardEvent<HTMLInputElement>) => void;
  problem: FilterProblem | null;
}) {
  const at = problem ? Math.min(problem.position, value.length) : 0;
  const caret = problem && (
    <Box
      component="pre"
      aria-hidden
      mt={4}
      mb={0}
      p={4}
      fz="sm"
      ff="monospace"
      style={{ overflowX: 'auto', whiteSpace: 'pre', borderRadius: 4, background: 'var(--mantine-color-default-hover)' }}
      data-testid="filter-caret"
    >
      {value.slice(0, at)}
      <Box component="mark" c="inherit" style={{ background: 'var(--mantine-color-red-light)', textDecoration: 'underline wavy var(--mantine-color-error)' }}>
        {value.slice(at, at + 1) || ' '}
      </Box>
      {value.slice(at + 1)}
      {'\n'}
      <Text span c="var(--mantine-color-error)" fw={700} inherit>
        {caretLine(value, at)}
      </Text>
    </Box>
  );
  return (
    <TextInput
      label={label}
      placeholder='score > 0.5 and status == "ok"'
      description={problem ? undefined : description}
      leftSection={<IconFilter size={16} aria-hidden />}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      onKeyDown={onKeyDown}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      spellCheck={false}
      autoComplete="off"
      inputContainer={(input) => (
        <>
          {input}
          {caret}
        </>
      )}
      error={
        problem ? (
          <span role="alert" data-testid="filter-problem">
            {problem.message} ({positionText(value, at)})
          </span>
        ) : undefined
      }
    />
  );
}
