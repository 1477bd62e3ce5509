// `npm test`: typecheck, lint (ESLint and Prettier), unit and route tests (vitest), production build, Playwright e2e in Debian's
// Chromium. Every step runs even when an earlier one failed; the last line is `N passed, N failed`
// and the exit code is non-zero when anything failed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureChromium } from './chromium.mjs';
import { playwrightFailures, vitestFailures } from './test-report.mjs';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-test-run-'));
let passed = 0;
let failed = 0;
const problems = [];

function step(title) {
  console.log(`\n=== ${title} ===`);
}

function run(cmd, args, env = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

function check(name, ok) {
  if (ok) passed += 1;
  else {
    failed += 1;
    problems.push(name);
  }
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

step('typecheck');
check('typecheck', run(bin('tsc'), ['-b']));

step('lint (ESLint, Prettier)');
check('lint', run('npm', ['run', '--silent', 'lint']));

step('unit and route tests (vitest)');
const vitestJson = path.join(work, 'vitest.json');
const vitestOk = run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);
const vitest = readJson(vitestJson);
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  for (const name of vitestFailures(vitest, root)) problems.push(name);
  if (!vitestOk && vitest.numFailedTests === 0) check('vitest run (suite error)', false);
} else check('vitest run (no report)', vitestOk && false);

step('production build');
const webDir = path.join(work, 'web');
const buildOk = run(process.execPath, [path.join(root, 'scripts/build.mjs'), '--outDir', webDir]);
check('build', buildOk);

step('end-to-end tests (Playwright, Debian chromium)');
if (!ensureChromium('the e2e suite')) check('chromium available', false);
else {
  const pwJson = path.join(work, 'playwright.json');
  const pwOk = run(bin('playwright'), ['test'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
    ...(buildOk ? { E2E_WEB_DIR: webDir } : {}),
  });
  const report = readJson(pwJson);
  if (report?.stats) {
    const { expected = 0, unexpected = 0, flaky = 0 } = report.stats;
    passed += expected;
    failed += unexpected + flaky;
    for (const name of playwrightFailures(report.suites ?? [])) problems.push(`e2e ${name}`);
    if (!pwOk && unexpected + flaky === 0) check('playwright run (suite error)', false);
  } else check('playwright run (no report)', false);
}

fs.rmSync(work, { recursive: true, force: true });
console.log('');
for (const problem of problems) console.log(`Failed: ${problem}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
