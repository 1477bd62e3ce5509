import { Box, Text, TextInput } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { caretLine, filterProblem, positionText, type FilterProblem } from './filter-problem.ts';

const DEBOUNCE_MS = 600;

/**
 * The filter of the log explorer, in the logs filter language. Syntax errors show as one types, at their
 * position (the filter again with the bad spot marked, a caret under it, and the message); a filter
 * that parses is applied on Enter or after a pause. `serverProblem` is the server's 422 for the applied
 * filter, shown the same way.
 */
export function FilterBox({ value, onApply, serverProblem }: { value: string; onApply: (filter: string) => void; serverProblem: FilterProblem | null }) {
  const [draft, setDraft] = useState(value);
  // The applied filter changed elsewhere (back button, a reset): the box follows.
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setDraft(value);
  }
  const local = filterProblem(draft);
  const problem = local ?? (draft === value ? serverProblem : null);

  useEffect(() => {
    if (local || draft === value) return;
    const timer = setTimeout(() => onApply(draft), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, value, local, onApply]);

  const at = problem ? Math.min(problem.position, draft.length) : 0;
  // The filter again with the bad spot marked and a caret under it (a picture of what the message says).
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
      {draft.slice(0, at)}
      <Box component="mark" c="inherit" style={{ background: 'var(--mantine-color-red-light)', textDecoration: 'underline wavy var(--mantine-color-error)' }}>
        {draft.slice(at, at + 1) || ' '}
      </Box>
      {draft.slice(at + 1)}
      {'\n'}
      <Text span c="var(--mantine-color-error)" fw={700} inherit>
        {caretLine(draft, at)}
      </Text>
    </Box>
  );
  return (
    <Box style={{ flex: '1 1 320px', minWidth: 0 }}>
      <TextInput
        label="Filter"
        placeholder='score > 0.5 and status == "ok"'
        description={problem ? undefined : 'Python-style: comparisons, and/or/not, in, len(), … Enter applies it.'}
        leftSection={<IconFilter size={16} aria-hidden />}
        value={draft}
        onChange={(e) => setDraft(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            if (!local) onApply(draft);
          }
          if (e.key === 'Escape' && draft !== value) setDraft(value);
        }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        spellCheck={false}
        autoComplete="off"
        inputContainer={(input) => (
          <>
            {input}
            {caret}
          </>
        )}
        // The input is aria-invalid and described by this message (Mantine wires both from `error`).
        error={
          problem ? (
            <span role="alert" data-testid="filter-problem">
              {problem.message} ({positionText(draft, at)})
            </span>
          ) : undefined
        }
      />
    </Box>
  );
}
