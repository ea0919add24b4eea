// Prints the closing line of CI: "N passed, N failed", counting vitest's tests plus the static checks
// (typecheck, lint, format, dependency direction). A test run that produced no report counts as one failure.
import { existsSync, readFileSync } from 'node:fs';

const [file, staticPassed, staticFailed, testStatus] = process.argv.slice(2);
let passed = Number(staticPassed);
let failed = Number(staticFailed);
if (existsSync(file)) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  if (report.numFailedTestSuites > 0 && report.numFailedTests === 0) failed += report.numFailedTestSuites;
} else {
  failed += 1;
}
if (Number(testStatus) !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
