import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const TABLE = new URL('./durations.json', import.meta.url);

/**
 * Rewrites test/durations.json, the table test/sequencer.ts orders test files by, with the files of this run:
 *   npx vitest run --reporter=default --reporter=./test/durations-reporter.ts
 * A file's figure is its wall time in seconds from the start of its import to its end, hooks included (a JSON
 * report's times leave out beforeAll and afterAll, where many integration files start their servers), the longest
 * in any project (one file runs on both engines). Files this run did not take keep their figure; files that are
 * gone leave the table.
 */
export default class DurationsReporter implements Reporter {
  /** Start of each file of each project (the reported module objects of one file are not always the same). */
  readonly #started = new Map<string, number>();
  readonly #seconds = new Map<string, number>();
  #root = '';

  onTestModuleQueued(module: TestModule): void {
    this.#started.set(`${module.project.name}:${module.moduleId}`, performance.now());
  }

  onTestModuleEnd(module: TestModule): void {
    const started = this.#started.get(`${module.project.name}:${module.moduleId}`);
    if (started === undefined) return;
    this.#root = module.project.config.root;
    const file = relative(this.#root, module.moduleId).replaceAll('\\', '/');
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    this.#seconds.set(file, Math.max(this.#seconds.get(file) ?? 0, seconds));
  }

  onTestRunEnd(): void {
    if (this.#seconds.size === 0) return;
    const table: Record<string, number> = JSON.parse(readFileSync(TABLE, 'utf8'));
    for (const [file, seconds] of this.#seconds) table[file] = seconds;
    const sorted = Object.fromEntries(
      Object.entries(table)
        .filter(([file]) => existsSync(join(this.#root, file)))
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    writeFileSync(TABLE, `${JSON.stringify(sorted, null, 2)}\n`);
  }
}
