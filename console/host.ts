import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostOptions } from './host/options.js';
import { createConsoleHost } from './host/serve.js';

/**
 * `benchtrack-console`: serves the built web console at console.url and tells it where the API is. Compiled to
 * dist/console/host.js, beside the app that `vite build` writes to dist/console/app.
 */
async function main(): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  // From source (tsx) the app is still found in dist/, where `npm run build` puts it.
  const root = here.endsWith(join('dist', 'console'))
    ? join(here, 'app')
    : join(here, '..', 'dist', 'console', 'app');
  const options = hostOptions(
    process.argv.slice(2),
    process.env,
    process.env.BENCHTRACK_CONSOLE_ROOT ?? root,
  );
  const server = createConsoleHost(options);
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const shown = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  process.stderr.write(
    `Console listening at http://${shown}:${port} (console.url ${options.consoleUrl.href}, API at ${options.apiUrl})\n`,
  );
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`benchtrack-console: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
