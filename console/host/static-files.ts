import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One built file, held in memory with its gzip form (the app is a few hundred kB; no disk reads per request). */
export interface StaticFile {
  readonly body: Buffer;
  readonly gzip: Buffer | undefined;
  readonly type: string;
  /** Vite names assets by content hash, so they never change under their name. */
  readonly immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt', '.map']);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

export function staticFile(body: Buffer, path: string): StaticFile {
  const ext = extname(path);
  return {
    body,
    gzip: COMPRESSIBLE.has(ext) && body.length > 512 ? gzipSync(body, { level: 9 }) : undefined,
    type: TYPES[ext] ?? 'application/octet-stream',
    immutable: path.startsWith('/assets/'),
  };
}

/** Every file under `root`, keyed by URL path (`/assets/index-abc123.js`). */
export function loadStaticFiles(root: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const path of walk(root)) {
    const urlPath = `/${relative(root, path).split(sep).join('/')}`;
    files.set(urlPath, staticFile(readFileSync(path), urlPath));
  }
  return files;
}
