import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageInfo } from '../../../core/package-info.js';
import type { Service } from './state.js';

/**
 * How to start a service as a local process: the installed bins (bin/benchtrack-api.cjs,
 * bin/benchtrack-console.cjs) when this client runs compiled, the TypeScript entries through tsx when it runs
 * from source (development and the tests). Undefined when the service is not installed (the console is
 * optional: an API-only install works).
 */
export interface ServiceProgram {
  /** Arguments of node. */
  readonly args: string[];
  /**
   * Working directory. From source it is the repository: the API's worker pool loads tsx by bare name
   * (`--import tsx`), which resolves from there.
   */
  readonly cwd: string | undefined;
}

export function serviceProgram(service: Service): ServiceProgram | undefined {
  const root = packageInfo().root;
  const fromSource = fileURLToPath(import.meta.url).endsWith('.ts');
  if (fromSource) {
    const entry = join(root, service === 'api' ? 'server/main.ts' : 'console/host.ts');
    const tsx = join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs');
    // The console's host serves the app Vite built, even from source.
    const app = service === 'api' || existsSync(join(root, 'dist', 'console', 'app', 'index.html'));
    return existsSync(entry) && existsSync(tsx) && app
      ? { args: ['--import', pathToFileURL(tsx).href, entry], cwd: root }
      : undefined;
  }
  const bin = join(root, 'bin', `benchtrack-${service}.cjs`);
  const built = join(root, 'dist', service === 'api' ? 'api-bundle/main.js' : 'console/host.js');
  return existsSync(bin) && existsSync(built) ? { args: [bin], cwd: undefined } : undefined;
}
