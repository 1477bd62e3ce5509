import { Group, Pagination, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { ADMIN_PAGE_SIZE } from '../../../../shared/admin.ts';
import { useUrlFilter } from '../../../lib/use-url-filter.ts';
import type { AdminListParams } from '../../../data/admin.ts';

/** The search text (`?q=`) and page (`?page=`) of an admin list, both in the address; a new search starts at page 1. */
export function useAdminList(): { params: AdminListParams; input: string; setInput: (value: string) => void; setPage: (page: number) => void } {
  const filter = useUrlFilter('q');
  const [search, setSearch] = useSearchParams();
  const raw = Number(search.get('page') ?? '1');
  const page = Number.isInteger(raw) && raw > 0 ? raw : 1;
  const setPage = (next: number) =>
    setSearch((current) => {
      const updated = new URLSearchParams(current);
      if (next > 1) updated.set('page', String(next));
      else updated.delete('page');
      return updated;
    });
  return {
    params: { search: filter.value, page },
    input: filter.input,
    setInput: (value) => {
      filter.setInput(value);
      if (page !== 1) setPage(1);
    },
    setPage,
  };
}

/** "41–50 of 73" and the page buttons under a list. */
export function ListPager({
  total,
  page,
  perPage = ADMIN_PAGE_SIZE,
  onChange,
  what,
}: {
  total: number;
  page: number;
  perPage?: number;
  onChange: (page: number) => void;
  what: string;
}) {
  const pages = Math.max(1, Math.ceil(total / perPage));
  const first = total === 0 ? 0 : (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  return (
    <Group justify="space-between" mt="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        {first}–{last} of {total} {what}
      </Text>
      {pages > 1 && <Pagination total={pages} value={page} onChange={onChange} size="sm" getControlProps={(c) => ({ 'aria-label': `${c} page` })} />}
    </Group>
  );
}
