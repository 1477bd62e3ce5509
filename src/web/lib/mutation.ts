import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A change the dashboard can make, with the cached reads it makes stale. Defined next to the reads of
 * its resource (src/web/data); pages use it through `useApiMutation` and add only what they show.
 */
export interface MutationDef<V, R> {
  mutationFn: (variables: V) => Promise<R>;
  /** Queries to refetch after success (prefixes: `['projects']` covers every project query). */
  invalidates: (result: R, variables: V) => QueryKey[];
  /** Queries to drop after success (what no longer exists). */
  removes?: (result: R, variables: V) => QueryKey[];
  /** Queries to refetch after a failure too (the failure may say the cache is out of date: a 404 for what was deleted elsewhere). */
  invalidatesOnError?: (variables: V) => QueryKey[];
}

export function mutation<V, R>(def: MutationDef<V, R>): MutationDef<V, R> {
  return def;
}

interface Callbacks<V, R> {
  onSuccess?: (result: R, variables: V) => unknown;
  onError?: (error: Error, variables: V) => unknown;
}

/** Runs a mutation definition: its invalidations start before the page's own onSuccess. */
export function useApiMutation<V, R>(def: MutationDef<V, R>, callbacks: Callbacks<V, R> = {}) {
  const client = useQueryClient();
  return useMutation<R, Error, V>({
    mutationFn: def.mutationFn,
    onSuccess: (result, variables) => {
      const gone = def.removes?.(result, variables) ?? [];
      for (const queryKey of gone) void client.cancelQueries({ queryKey });
      const refreshed = def.invalidates(result, variables).map((queryKey) => client.invalidateQueries({ queryKey }));
      // Dropped once the lists are fresh: a list row still on screen until then would otherwise ask for the
      // thing it shows again, and get a 404 (a deleted project's card, issue 20 item 25).
      if (gone.length > 0) void Promise.allSettled(refreshed).then(() => gone.forEach((queryKey) => client.removeQueries({ queryKey })));
      return callbacks.onSuccess?.(result, variables);
    },
    onError: (error, variables) => {
      for (const queryKey of def.invalidatesOnError?.(variables) ?? []) void client.invalidateQueries({ queryKey });
      return callbacks.onError?.(error, variables);
    },
  });
}
