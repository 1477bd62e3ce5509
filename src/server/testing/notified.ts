import { expect } from 'vitest';
import { EPOCH_CACHE_TTL_MS } from '../db/epoch-cache.ts';

/**
 * Waits until `seen()` holds on a server that cached what another server changed: it drops it when the
 * commit's notification arrives (milliseconds); failing at half the caches' 5 s bound tells a notification
 * apart from the bound.
 */
export async function untilNotified(seen: () => Promise<boolean>, stillStale: string): Promise<void> {
  const start = Date.now();
  while (!(await seen())) {
    expect(Date.now() - start, stillStale).toBeLessThan(EPOCH_CACHE_TTL_MS / 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
