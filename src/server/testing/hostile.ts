import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** The checks every answer to hostile input must pass, whatever its status (the hostile suites). */
export function wellFormed(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBeLessThan(500);
  if (res.statusCode >= 400) {
    const body = res.json();
    expect(body).toHaveProperty('detail');
    expect(res.body).not.toMatch(/at .*\.ts:\d+|SQLITE|syntax error|node_modules/i);
  }
}
