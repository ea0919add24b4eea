// Rewrites test/durations.json, the table test/sequencer.ts orders test files by, from a vitest JSON report:
//   npx vitest run --reporter=default --reporter=json --outputFile=results.json   (or CI's .ci/results.json)
//   node scripts/test-durations.mjs results.json
// A file's figure is its longest time in any project (one file runs once per engine), in seconds.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [report] = process.argv.slice(2);
if (!report) {
  console.error('usage: node scripts/test-durations.mjs <vitest JSON report>');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
const seconds = {};
/** The path in this checkout of a file the report names in the checkout it ran in (CI's clone, a worktree). */
function inRepository(name) {
  const parts = name.split(/[/\\]/);
  for (let i = 1; i < parts.length; i++) {
    const file = parts.slice(i).join('/');
    if (existsSync(join(root, file))) return file;
  }
  return undefined;
}
for (const { name, startTime, endTime } of testResults) {
  const file = inRepository(name);
  if (file === undefined) continue; // a file this checkout no longer has
  const taken = Math.round((endTime - startTime) / 100) / 10;
  seconds[file] = Math.max(seconds[file] ?? 0, taken);
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(join(root, 'test', 'durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.error(`test/durations.json: ${Object.keys(sorted).length} files`);
