import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** Where the console host listens and what it tells the app. */
export interface HostOptions {
  /** Public URL of the console (console.url): the links the API e-mails point here. */
  readonly consoleUrl: URL;
  /** Base URL of the API as the browser reaches it (no trailing slash). */
  readonly apiUrl: string;
  /** Address to bind; 0.0.0.0 like the API, so a container's published port reaches it. */
  readonly host: string;
  /** Port to bind (0 picks a free one); from console.url unless overridden. */
  readonly port: number;
  /** Folder of the built app (index.html and assets/). */
  readonly root: string;
}

export const DEFAULT_CONSOLE_URL = 'http://localhost:3000';
export const DEFAULT_API_URL = 'http://localhost:61016';

interface ConfigDocument {
  console?: { url?: unknown };
  server?: { bind_address?: unknown; tls?: unknown };
}

/**
 * The API's own configuration document, when one is given the way the API reads it (BENCHTRACK_CONFIG, then
 * BENCHTRACK_CONFIG_PATH): the console then serves at the same console.url the API puts in its e-mails and
 * finds the API at the port it binds, with nothing said twice. Unreadable documents are the API's to report.
 */
function apiConfigDocument(env: NodeJS.ProcessEnv): ConfigDocument {
  try {
    if (env.BENCHTRACK_CONFIG) return JSON.parse(env.BENCHTRACK_CONFIG) as ConfigDocument;
    if (env.BENCHTRACK_CONFIG_PATH) {
      return JSON.parse(readFileSync(env.BENCHTRACK_CONFIG_PATH, 'utf8')) as ConfigDocument;
    }
  } catch {
    return {};
  }
  return {};
}

function apiUrlFromBindAddress(document: ConfigDocument): string | undefined {
  const bind = document.server?.bind_address;
  if (typeof bind !== 'string') return undefined;
  const port = /:(\d+)$/.exec(bind)?.[1];
  if (!port) return undefined;
  const scheme = document.server?.tls ? 'https' : 'http';
  return `${scheme}://localhost:${port}`;
}

function parsePort(text: string, what: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`${what} must be a port number from 0 to 65535, got ${JSON.stringify(text)}`);
  }
  return port;
}

function parseUrl(text: string, what: string): URL {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return url;
  } catch {
    throw new Error(`${what} must be an http(s) URL, got ${JSON.stringify(text)}`);
  }
}

/**
 * Options from flags, then environment, then the API's configuration document, then defaults:
 * `--url`/BENCHTRACK_CONSOLE_URL, `--port`/BENCHTRACK_CONSOLE_PORT (or PORT), `--host`/BENCHTRACK_CONSOLE_HOST,
 * `--api-url`/BENCHTRACK_API_URL.
 */
export function hostOptions(argv: readonly string[], env: NodeJS.ProcessEnv, root: string): HostOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      url: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'api-url': { type: 'string' },
    },
    strict: true,
  });
  const document = apiConfigDocument(env);
  const configured = typeof document.console?.url === 'string' ? document.console.url : undefined;
  const consoleUrl = parseUrl(
    values.url ?? env.BENCHTRACK_CONSOLE_URL ?? configured ?? DEFAULT_CONSOLE_URL,
    'the console URL',
  );
  const portText = values.port ?? env.BENCHTRACK_CONSOLE_PORT ?? env.PORT;
  const port =
    portText !== undefined
      ? parsePort(portText, 'the console port')
      : Number(consoleUrl.port || (consoleUrl.protocol === 'https:' ? 443 : 80));
  const api =
    values['api-url'] ?? env.BENCHTRACK_API_URL ?? apiUrlFromBindAddress(document) ?? DEFAULT_API_URL;
  return {
    consoleUrl,
    apiUrl: parseUrl(api, 'the API URL').href.replace(/\/+$/, ''),
    host: values.host ?? env.BENCHTRACK_CONSOLE_HOST ?? '0.0.0.0',
    port,
    root,
  };
}
