// @web/test-runner reporter that writes {passed, failed, skipped} as JSON for scripts/test.mjs.
import { writeFileSync } from 'node:fs';

function tally(suite, counts) {
  for (const test of suite.tests ?? []) {
    if (test.skipped) counts.skipped++;
    else if (test.passed) counts.passed++;
    else counts.failed++;
  }
  for (const child of suite.suites ?? []) tally(child, counts);
}

export function countReporter(file) {
  return {
    onTestRunFinished({ sessions }) {
      const counts = { passed: 0, failed: 0, skipped: 0 };
      for (const session of sessions) {
        if (session.testResults) tally(session.testResults, counts);
        // A file that fails to load has no results but must still count as a failure.
        if (!session.passed && counts.failed === 0 && (session.errors?.length ?? 0) > 0) counts.failed++;
      }
      writeFileSync(file, JSON.stringify(counts));
    },
  };
}
