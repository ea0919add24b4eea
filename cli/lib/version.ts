import { readFileSync } from 'node:fs';

/**
 * Benchtrack's version from package.json, found next to the sources (cli/) or the build (dist/cli/). Read
 * directly rather than through core's packageInfo, so `--version` and `--help` do not load core.
 */
export function readVersion(): string {
  for (const candidate of ['../../package.json', '../../../package.json']) {
    try {
      const json = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (json.name === 'benchtrack' && json.version) return json.version;
    } catch {
      // Not this directory level; try the next one.
    }
  }
  return 'unknown';
}
