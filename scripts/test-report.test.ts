// The failure lines at the end of `npm test` and `npm run test:pg` (scripts/test-report.mjs), read from
// the JSON reports of real vitest and Playwright runs of a tiny failing suite: each names the test, the
// first line of its error and, for Playwright, the line that threw.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { firstLine, playwrightFailures, vitestFailures } from './test-report.mjs';

const root = path.resolve(import.meta.dirname, '..');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-report-'));
  made.push(dir);
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

function readReport(dir: string, cmd: string, args: string[]) {
  // Coloured output, as in a terminal: the failure lines must come out without the colour codes.
  const run = spawnSync(path.join(root, 'node_modules/.bin', cmd), args, { cwd: dir, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '1' } });
  expect(run.status, run.stdout + run.stderr).toBe(1);
  return JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8'));
}

describe('failure lines of the test run', () => {
  it('name a failed vitest test with the first line of its assertion, and a file that did not load', () => {
    const dir = project({
      'sums.test.ts': "import { it, expect } from 'vitest';\nit('adds', () => expect(1 + 1).toBe(3));\nit('passes', () => expect(1).toBe(1));\n",
      'broken.test.ts': "import './missing-module.ts';\n",
    });
    const report = readReport(dir, 'vitest', ['run', '--root', dir, '--reporter=json', '--outputFile.json=report.json']);
    const lines = vitestFailures(report, dir).sort();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^broken\.test\.ts — .*missing-module/);
    expect(lines[1]).toBe('sums.test.ts: adds — AssertionError: expected 2 to be 3 // Object.is equality');
  }, 60_000);

  it('name a failed Playwright test with the first line of its error and the line that threw', () => {
    const dir = project({
      'playwright.config.mjs': "export default { testDir: '.', reporter: [['json', { outputFile: 'report.json' }]] };\n",
      'checks.spec.ts': [
        "import { expect, test } from '@playwright/test';",
        "test.describe('arithmetic', () => {",
        "  test('adds', () => {",
        '    expect(1 + 1).toBe(3);',
        '  });',
        "  test('passes', () => expect(1).toBe(1));",
        '});',
        '',
      ].join('\n'),
    });
    const report = readReport(dir, 'playwright', ['test', '--config', 'playwright.config.mjs']);
    expect(playwrightFailures(report.suites)).toEqual([
      'checks.spec.ts:3 arithmetic › adds — Error: expect(received).toBe(expected) // Object.is equality (checks.spec.ts:4)',
    ]);
  }, 60_000);

  it('keep one line of a message: no colour codes, no blank lead, at most 240 characters', () => {
    expect(firstLine('\n\u001b[31mError: boom\u001b[39m\n  at somewhere')).toBe('Error: boom');
    expect(firstLine('x'.repeat(300))).toHaveLength(240);
    expect(firstLine(undefined)).toBe('');
  });
});
