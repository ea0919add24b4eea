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
    const seconds = (spec: TestSpecification) =>
      DURATIONS[relative(this.ctx.config.root, spec.moduleId).replaceAll('\\', '/')] ?? Infinity;
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        projects.indexOf(a.project.name) - projects.indexOf(b.project.name) ||
        seconds(b) - seconds(a) ||
        (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0),
    );
  }
}
