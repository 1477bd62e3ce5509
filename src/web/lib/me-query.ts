import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { BasicInfoSchema } from '../../shared/users.ts';
import { api } from './api-client.ts';

export type Me = z.infer<typeof BasicInfoSchema>;

/**
 * "Who am I" for the active key: name, credits, and the key's workspace, role and permissions. Apart from
 * `useMe` (use-me.ts) so that the route table can ask for it without the query hooks in the first chunk.
 */
export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: ({ signal }) => api.get<Me>('/v0/user/basic-info', { signal }),
});
