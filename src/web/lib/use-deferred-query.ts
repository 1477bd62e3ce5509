import { useQuery, type QueryKey, type UseQueryOptions, type UseQueryResult } from '@tanstack/react-query';
import { useDeferredValue } from 'react';

/**
 * `useQuery` for a page's main list: the answer reaches the page as a deferred value. useQuery's updates
 * always render synchronously, so a list arriving after the page had painted was one long task that
 * blocked input (160 ms for the members table on a throttled phone). Deferred, React first keeps what is
 * on screen (the skeleton, or the previous list), then renders the new list in the background, yielding
 * to the browser every few milliseconds. The result reads as still pending until the list is rendered.
 */
export function useDeferredQuery<TQueryFnData, TError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey>(
  options: UseQueryOptions<TQueryFnData, TError, TData, TQueryKey>,
): UseQueryResult<TData, TError> {
  const query = useQuery(options);
  const data = useDeferredValue(query.data);
  // Only arriving data is deferred: a query gone back to pending (a new key) reads as pending at once.
  if (data === query.data || query.data === undefined) return query;
  if (data === undefined) {
    return withFields(query, { data: undefined, error: null, status: 'pending', isPending: true, isSuccess: false, isError: false, isLoading: true } as Partial<
      UseQueryResult<TData, TError>
    >);
  }
  return withFields(query, { data } as Partial<UseQueryResult<TData, TError>>);
}

/**
 * The result with some fields replaced. The others are read through rather than copied: copying
 * (`{ ...query }`) reads every field, and react-query then re-renders the page on a change of any of
 * them, not only of those the page uses.
 */
function withFields<T extends object>(result: T, fields: Partial<T>): T {
  return new Proxy(result, { get: (target, key) => (Object.hasOwn(fields, key) ? fields[key as keyof T] : Reflect.get(target, key)) });
}
