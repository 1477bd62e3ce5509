import { Box } from '@mantine/core';
import { useEffect, useState } from 'react';
import { FilterInput } from '../../../components/filter-input.tsx';
import { filterProblem, type FilterProblem } from '../../../lib/filter-problem.ts';

const DEBOUNCE_MS = 600;

/**
 * The filter of the log explorer. Syntax errors show as one types, at their position; a filter that parses
 * is applied on Enter or after a pause. `serverProblem` is the server's 422 for the applied filter, shown
 * the same way.
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

  return (
    <Box style={{ flex: '1 1 320px', minWidth: 0 }}>
      <FilterInput
        description="Python-style: comparisons, and/or/not, in, len(), … Enter applies it."
        value={draft}
        onChange={setDraft}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            if (!local) onApply(draft);
          }
          if (e.key === 'Escape' && draft !== value) setDraft(value);
        }}
        problem={problem}
      />
    </Box>
  );
}
