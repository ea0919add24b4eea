import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each test file took, hooks included, the longest in any project since one file runs on both engines
 * (test/durations-reporter.ts rewrites it).
 */
const DURATIONS: Readonly<Record<string, number>> = JSON.parse(
  readFileSync(new URL('./durations.json', import.meta.url), 'utf8'),
);

/**
 * Longest files first, by the committed table of durations, so that no long file starts last and leaves one
 * worker alone at the end of a group (on a clean clone vitest has no results cache and its own sequencer orders by
 * file size: recovery.test.ts, 51 s in 7 lines, started last). Files missing from the table (new ones) go first,
 * as vitest does with files it has not timed.
 *
 * Groups (`sequence.groupOrder`) run one after another, and in a group each project's files stay together, in the
 * order of the configuration: a worker keeps its process for the next file only when that file is of the same
 * project, so interleaving the projects would import everything again for nearly every file.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const projects = this.ctx.projects.map((project) => project.name);
    const path = (spec: TestSpecification) =>
      relative(this.ctx.config.root, spec.moduleId).replaceAll('\\', '/');
    const seconds = (spec: TestSpecification) => DURATIONS[path(spec)] ?? Infinity;
    const sorted = [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        projects.indexOf(a.project.name) - projects.indexOf(b.project.name) ||
        seconds(b) - seconds(a) ||
        (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0),
    );
    return apart(sorted, (spec) => WAITING.has(path(spec)));
  }
}

/**
 * Files that spend most of their time waiting for a worker task's time limit or a grace period, with the CPU idle.
 * Two of them side by side left the machine idle for 3-12 s (plot-worker and the pool's tests: the CPU 1-6% busy
 * for 7 s).
 */
const WAITING = new Set(['test/security/plot-worker.test.ts', 'workers/pool.test.ts']);

/**
 * `specs` with the waiting files of a project after its first one moved to the end of that project's files: the
 * workers take files in this order, so a waiting file beside the next one in the list mostly ran at the same time
 * (and one a few short files later still overlapped a long one); at the end it runs beside the next project's first,
 * longest files.
 */
function apart(
  specs: TestSpecification[],
  waiting: (spec: TestSpecification) => boolean,
): TestSpecification[] {
  const out: TestSpecification[] = [];
  const moved: TestSpecification[] = [];
  specs.forEach((spec, index) => {
    if (waiting(spec) && out.some((earlier) => earlier.project === spec.project && waiting(earlier)))
      moved.push(spec);
    else out.push(spec);
    if (specs[index + 1]?.project !== spec.project) out.push(...moved.splice(0));
  });
  return out;
}
