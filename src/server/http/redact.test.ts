import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { redactUrl } from './redact.ts';

describe('secrets in the request log', () => {
  it('redacts invite tokens in paths and secret query values, keeping the rest', () => {
    expect(redactUrl('/v0/invites/abcDEF123/accept')).toBe('/v0/invites/[redacted]/accept');
    expect(redactUrl('/invite?token=s3cr3t&x=1')).toBe('/invite?token=[redacted]&x=1');
    expect(redactUrl('/a?KEY=k&api%5Fkey=k2&page=2&flag')).toBe('/a?KEY=[redacted]&api%5Fkey=[redacted]&page=2&flag');
    expect(redactUrl('/a?%E0%A4%A=1')).toBe('/a?%E0%A4%A=1');
    expect(redactUrl('/v0/projects')).toBe('/v0/projects');
  });

  it('never writes a token, a key or a cookie to the log of a real app', async () => {
    const lines: string[] = [];
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-log-'));
    const app = await buildApp(testConfig({ dataDir, databaseUrl: 'sqlite::memory:', logLevel: 'info' }), {
      logStream: { write: (line) => void lines.push(line) },
    });
    try {
      const token = 'InviteTokenSecret_0123456789abcdef';
      const key = 'rk_live_SecretKey0123456789';
      await app.inject({ method: 'GET', url: `/invite?token=${token}` });
      await app.inject({ method: 'GET', url: `/v0/invites/${token}`, headers: { authorization: `Bearer ${key}`, cookie: `session=${key}` } });
      await app.inject({ method: 'POST', url: `/v0/invites/${token}/accept?key=${key}`, headers: { authorization: `Bearer ${key}` } });
      const log = lines.join('');
      expect(log).toContain('[redacted]');
      expect(log).not.toContain(token);
      expect(log).not.toContain(key);
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
