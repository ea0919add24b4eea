// Prints the closing line of CI: "N passed, N failed", counting the tests of every vitest report (one per pass)
// plus the static checks (typecheck, lint, format, dependency direction). A report that is missing counts as one
// failure. Arguments: static checks passed, failed, the tests' exit status (non-zero if any pass failed), reports.
import { existsSync, readFileSync } from 'node:fs';

const [staticPassed, staticFailed, testStatus, ...files] = process.argv.slice(2);
let passed = Number(staticPassed);
let failed = Number(staticFailed);
for (const file of files) {
  if (!existsSync(file)) {
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  if (report.numFailedTestSuites > 0 && report.numFailedTests === 0) failed += report.numFailedTestSuites;
}
if (Number(testStatus) !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
