import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../config.ts';
import { sessionCookieOf } from './session-cookie.ts';

const ID = 'Zm9vYmFyYmF6cXV4LTEyMzQ1Njc4OTA_abcdef';
const plain = testConfig({ publicUrl: 'http://localhost:8080' });
const request = (cookie: string | undefined, protocol = 'http') => ({ headers: { cookie }, protocol }) as unknown as FastifyRequest;

describe('the session cookie of a request', () => {
  it('is found among other cookies, with or without spaces around it', () => {
    for (const header of [
      `roster_session=${ID}`,
      `theme=dark; roster_session=${ID}; _ga=GA1.1.1`,
      `theme=dark;roster_session=${ID}`,
      `a=1;  roster_session = ${ID} ;b=2`,
    ])
      expect(sessionCookieOf(request(header), plain), header).toBe(ID);
  });

  it('is not a cookie whose name only contains its name, nor one that is not a session id', () => {
    for (const header of [
      undefined,
      '',
      `xroster_session=${ID}`,
      `roster_session_old=${ID}`,
      `theme=roster_session=${ID}`,
      'roster_session=short',
      'roster_session=has spaces inside it',
      `roster_session=${ID}"`,
    ])
      expect(sessionCookieOf(request(header), plain), String(header)).toBeNull();
    // The first pair of the name is the one read, as a browser sends the most specific first.
    expect(sessionCookieOf(request(`roster_session=bad!; roster_session=${ID}`), plain)).toBeNull();
    expect(sessionCookieOf(request(`roster_session_old=x; roster_session=${ID}`), plain)).toBe(ID);
  });

  it('is the __Host- cookie over HTTPS, and only there', () => {
    const secure = testConfig({ publicUrl: 'https://roster.example' });
    expect(sessionCookieOf(request(`__Host-roster_session=${ID}`), secure)).toBe(ID);
    expect(sessionCookieOf(request(`roster_session=${ID}`), secure)).toBeNull();
    expect(sessionCookieOf(request(`__Host-roster_session=${ID}`, 'https'), plain)).toBe(ID);
    expect(sessionCookieOf(request(`__Host-roster_session=${ID}`), plain)).toBeNull();
  });
});
