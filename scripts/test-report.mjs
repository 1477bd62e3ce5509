// Names of the failed tests in vitest's and Playwright's JSON reports, so that a run's last lines say
// which tests failed, not only how many (CI logs are often read from the end).
import path from 'node:path';

export function vitestFailures(report, root) {
  return (report.testResults ?? []).flatMap((file) => {
    const where = path.relative(root, file.name);
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    // A file that failed to load has no test results, only a message.
    if (failed.length === 0 && file.status === 'failed') return [`${where}: ${file.message ?? 'suite failed'}`];
    return failed.map((t) => `${where}: ${t.fullName}`);
  });
}

// Specs whose outcome was not the expected one (failed, timed out, or flaky).
export function playwrightFailures(suites, parents = []) {
  return suites.flatMap((suite) => {
    const trail = suite.title && !/\.(ts|js)$/.test(suite.title) ? [...parents, suite.title] : parents;
    const own = (suite.specs ?? [])
      .filter((spec) => spec.tests.some((t) => t.status === 'unexpected' || t.status === 'flaky'))
      .map((spec) => `${spec.file}:${spec.line} ${[...trail, spec.title].join(' › ')}`);
    return [...own, ...playwrightFailures(suite.suites ?? [], trail)];
  });
}
