import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HostOptions } from './options.js';
import { loadStaticFiles, staticFile, type StaticFile } from './static-files.js';

/** What the app learns from its host: the API's location (the console itself is static). */
export interface ConsoleConfig {
  readonly api_url: string;
  readonly console_url: string;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * index.html with the configuration in a meta tag, so the app knows where the API is before its first request
 * (no round trip to /config.json, and the built assets stay the same for every deployment).
 */
function indexWithConfig(index: StaticFile, config: ConsoleConfig): StaticFile {
  const meta = `<meta name="benchtrack-config" content="${escapeAttribute(JSON.stringify(config))}">`;
  const html = index.body.toString('utf8').replace('<head>', `<head>\n    ${meta}`);
  return staticFile(Buffer.from(html), '/index.html');
}

function securityHeaders(apiUrl: string): Record<string, string> {
  const api = new URL(apiUrl).origin;
  return {
    // uPlot and the app set inline style attributes; scripts come from this host only.
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      `img-src 'self' data: blob: ${api}`,
      `connect-src 'self' ${api}`,
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
  };
}

function send(
  request: IncomingMessage,
  response: ServerResponse,
  file: StaticFile,
  headers: Record<string, string>,
) {
  const gzip = file.gzip && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  const body = gzip ? file.gzip! : file.body;
  response.writeHead(200, {
    ...headers,
    'content-type': file.type,
    'content-length': String(body.length),
    'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    vary: 'accept-encoding',
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}

/**
 * The console's HTTP server: built files by path, `/config.json`, and index.html for every other path (the app
 * routes in the browser, so a shared link such as /console/projects/p/perf?... loads the app).
 */
export function createConsoleHost(options: HostOptions): Server {
  if (!existsSync(join(options.root, 'index.html'))) {
    throw new Error(
      `the console is not built: ${join(options.root, 'index.html')} is missing; run npm run build`,
    );
  }
  const files = loadStaticFiles(options.root);
  const config: ConsoleConfig = {
    api_url: options.apiUrl,
    console_url: options.consoleUrl.href.replace(/\/$/, ''),
  };
  const index = indexWithConfig(files.get('/index.html')!, config);
  const configFile = staticFile(Buffer.from(JSON.stringify(config)), '/config.json');
  const headers = securityHeaders(options.apiUrl);

  return createServer((request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response
        .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' })
        .end('method not allowed\n');
      return;
    }
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname);
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('bad request\n');
      return;
    }
    if (path === '/config.json') return send(request, response, configFile, headers);
    const file = path === '/index.html' ? undefined : files.get(path);
    if (file) return send(request, response, file, headers);
    // A missing hashed asset is a stale page asking for an old build: a 404 lets it fail visibly.
    if (path.startsWith('/assets/')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    send(request, response, index, headers);
  });
}
