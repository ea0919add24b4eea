import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_PROGRAM, startServerProcess, type ServerProcess } from '../helpers/process.js';

/** A real `benchtrack-api` process over a temporary database, for the CLI's end-to-end tests. */
export interface ApiServer {
  readonly url: string;
  readonly dir: string;
  readonly process: ServerProcess;
  /** Signs up through the API, confirms with the link the server logged, and returns the session token. */
  signUp(name: string, email: string): Promise<{ token: string; user: { uuid: string; slug: string } }>;
  close(): Promise<void>;
}

export async function startApiServer(document: Record<string, unknown> = {}): Promise<ApiServer> {
  const dir = mkdtempSync(join(tmpdir(), 'benchtrack-cli-'));
  const logFile = join(dir, 'api.log');
  const config = {
    security: { secret_key: 'cli-test-secret-key-0123456789abcdef' },
    server: { bind_address: '127.0.0.1:0' },
    logging: { log: { mode: 'file', level: 'info', path: logFile, if_exists: 'append' } },
    database: { file: join(dir, 'benchtrack.db') },
    ...document,
  };
  const server = await startServerProcess(
    { BENCHTRACK_CONFIG: JSON.stringify(config) },
    // compiled, like the client that talks to it (the end-to-end project's global setup builds dist/)
    { logFile, timeoutMs: 60_000, command: [API_PROGRAM] },
  );
  const post = async (path: string, body: unknown): Promise<any> => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  return {
    url: server.url,
    dir,
    process: server,
    async signUp(name, email) {
      await post('/v0/auth/signup', { name, email, i_agree: true });
      const link = readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes('"mail"'))
        .map((line) => (JSON.parse(line) as { mail: { to: string; link?: string } }).mail)
        .filter((mail) => mail.to === email.toLowerCase())
        .at(-1)?.link;
      if (!link) throw new Error(`no confirmation link for ${email} in the server log`);
      return post('/v0/auth/confirm', { token: new URL(link).searchParams.get('token') });
    },
    async close() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
