import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { testConfig } from './config.ts';

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

describe('the data directory is private', () => {
  it('creates the directory 700 and the SQLite database 600', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-perm-'));
    const dataDir = path.join(parent, 'data');
    const app = await buildApp(testConfig({ dataDir, databaseUrl: `sqlite:${path.join(dataDir, 'roster.db')}` }));
    try {
      expect(modeOf(dataDir).toString(8)).toBe('700');
      expect(modeOf(path.join(dataDir, 'roster.db')).toString(8)).toBe('600');
    } finally {
      await app.close();
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it('warns at start when an existing directory is readable by others', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-perm-'));
    fs.chmodSync(dataDir, 0o755);
    const lines: string[] = [];
    const app = await buildApp(testConfig({ dataDir, databaseUrl: 'sqlite::memory:', logLevel: 'warn' }), { logStream: { write: (l) => void lines.push(l) } });
    try {
      expect(lines.join('')).toContain('can be read by other users of this machine (mode 755): run chmod 700');
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
