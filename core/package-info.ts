import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PackageInfo {
  readonly name: string;
  readonly version: string;
  /** Directory holding package.json: the repository in development, the installed package in production. */
  readonly root: string;
  /** The version ranges of the packages a configuration may need beyond the default install. */
  readonly peerDependencies: Readonly<Record<string, string>>;
}

let cached: PackageInfo | undefined;

/** Reads Benchtrack's package.json, found by walking up from this module (works from core/ and dist/core/). */
export function packageInfo(): PackageInfo {
  if (cached) return cached;
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(directory, 'package.json');
    if (existsSync(candidate)) {
      const json = JSON.parse(readFileSync(candidate, 'utf8')) as {
        name?: string;
        version?: string;
        peerDependencies?: Record<string, string>;
      };
      if (json.name === 'benchtrack' && json.version) {
        cached = {
          name: json.name,
          version: json.version,
          root: directory,
          peerDependencies: json.peerDependencies ?? {},
        };
        return cached;
      }
    }
    const parent = dirname(directory);
    if (parent === directory)
      throw new Error('package.json of benchtrack not found above ' + import.meta.url);
    directory = parent;
  }
}
