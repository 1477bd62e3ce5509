// `npm run test:pg`: the server's route tests, unchanged, on PostgreSQL (a throwaway cluster, or the
// one TEST_DATABASE_URL points at). Ends with `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCluster } from './pg-cluster.mjs';
import { vitestFailures } from './test-report.mjs';

const root = path.resolve(import.meta.dirname, '..');
let cluster = null;
let url = process.env.TEST_DATABASE_URL;
let passed = 0;
let failed = 0;
const failures = [];
try {
  if (!url) {
    cluster = startCluster();
    url = cluster.url;
    console.log(`PostgreSQL test cluster at ${url}`);
  }
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'roster-pg-report-')), 'vitest.json');
  const result = spawnSync(path.join(root, 'node_modules/.bin/vitest'), ['run', 'src/server', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: url },
  });
  try {
    const json = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed = json.numPassedTests;
    failed = json.numFailedTests;
    failures.push(...vitestFailures(json, root));
    if (result.status !== 0 && failed === 0) failed = 1;
  } catch {
    failed = Math.max(failed, 1);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  failed = Math.max(failed, 1);
} finally {
  cluster?.stop();
}
for (const name of failures) console.log(`Failed: ${name}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
