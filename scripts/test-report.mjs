// Names of the failed tests in vitest's and Playwright's JSON reports, each with the first line of its
// error and where it was thrown, so that a run's last lines say which tests failed and why, not only how
// many (CI logs are often read from the end, and only the end may be kept).
import path from 'node:path';

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** The first non-empty line of an error message, without colour codes, at most 240 characters. */
export function firstLine(message) {
  const line = (message ?? '')
    .replace(ANSI, '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (!line) return '';
  return line.length > 240 ? `${line.slice(0, 239)}…` : line;
}

function withReason(name, message, where) {
  const reason = firstLine(message);
  if (!reason) return name;
  return `${name} — ${reason}${where ? ` (${where})` : ''}`;
}

export function vitestFailures(report, root) {
  return (report.testResults ?? []).flatMap((file) => {
    const where = path.relative(root, file.name);
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    // A file that failed to load has no test results, only a message.
    if (failed.length === 0 && file.status === 'failed') return [withReason(where, file.message || 'suite failed')];
    return failed.map((t) => withReason(`${where}: ${t.fullName}`, t.failureMessages?.[0]));
  });
}

// Specs whose outcome was not the expected one (failed, timed out, or flaky), with the first error of the
// first attempt that did not pass.
export function playwrightFailures(suites, parents = []) {
  return suites.flatMap((suite) => {
    const trail = suite.title && !/\.(ts|js)$/.test(suite.title) ? [...parents, suite.title] : parents;
    const own = (suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((t) => t.status === 'unexpected' || t.status === 'flaky')
        .map((t) => {
          const name = `${spec.file}:${spec.line} ${[...trail, spec.title].join(' › ')}`;
          const result = (t.results ?? []).find((r) => r.status !== 'passed' && r.status !== 'skipped');
          const error = result?.errors?.[0] ?? result?.error;
          const at = error?.location;
          const message = error?.message ?? result?.status;
          return withReason(name, message, at ? `${path.basename(at.file)}:${at.line}` : undefined);
        }),
    );
    return [...own, ...playwrightFailures(suite.suites ?? [], trail)];
  });
}
