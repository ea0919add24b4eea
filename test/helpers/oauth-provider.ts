import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProviderAccount {
  readonly login: string;
  readonly name: string | null;
  readonly emails: readonly { email: string; primary: boolean; verified: boolean }[];
}

/**
 * A GitHub-like OAuth2 provider on 127.0.0.1: the authorize page (it logs in `account` at once and redirects
 * with a code), the token endpoint (codes work once, for the right client and secret only), and the user and
 * e-mail API. It records every request it served, so a test can check what the server sent.
 */
export class OAuthProvider {
  account: ProviderAccount = { login: 'octo', name: 'Octo Cat', emails: [] };
  readonly requests: { method: string; path: string; body: string; authorization?: string }[] = [];
  readonly #codes = new Map<string, ProviderAccount>();
  readonly #tokens = new Map<string, ProviderAccount>();
  #server: http.Server | undefined;
  url = '';

  constructor(
    readonly clientId: string,
    readonly clientSecret: string,
  ) {}

  async start(): Promise<void> {
    this.#server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => this.#serve(request, response, body));
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** `plus.codehost` of a server that logs in through this provider (started). */
  codehost() {
    return {
      client_id: this.clientId,
      client_secret: this.clientSecret,
      authorize_url: `${this.url}/login/oauth/authorize`,
      token_url: `${this.url}/login/oauth/access_token`,
      api_url: `${this.url}/api/v3`,
    };
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise((resolve) => this.#server?.close(resolve));
  }

  #serve(request: http.IncomingMessage, response: http.ServerResponse, body: string): void {
    const url = new URL(request.url ?? '/', this.url);
    const authorization = request.headers.authorization;
    this.requests.push({
      method: request.method ?? '',
      path: url.pathname,
      body,
      ...(authorization ? { authorization } : {}),
    });
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    const account = this.#tokens.get(authorization?.replace(/^Bearer /, '') ?? '');
    if (request.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      if (url.searchParams.get('client_id') !== this.clientId) return json(400, { error: 'unknown client' });
      const code = randomBytes(10).toString('hex');
      this.#codes.set(code, this.account);
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      response.writeHead(302, { location: back.toString() });
      return void response.end();
    }
    if (request.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const input = JSON.parse(body || '{}') as Record<string, string>;
      if (input.client_id !== this.clientId || input.client_secret !== this.clientSecret) {
        return json(200, { error: 'incorrect_client_credentials' });
      }
      const owner = this.#codes.get(input.code ?? '');
      if (!owner) return json(200, { error: 'bad_verification_code' });
      this.#codes.delete(input.code ?? '');
      const token = randomBytes(16).toString('hex');
      this.#tokens.set(token, owner);
      return json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    if (!account) return json(401, { message: 'Bad credentials' });
    if (request.method === 'GET' && url.pathname === '/api/v3/user') {
      return json(200, { login: account.login, name: account.name, id: 1 });
    }
    if (request.method === 'GET' && url.pathname === '/api/v3/user/emails') return json(200, account.emails);
    json(404, { message: 'Not Found' });
  }
}
