import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AuthService } from '../accounts/auth.js';
import { ForbiddenError, InputError, UnauthorizedError, UnavailableError } from '../errors.js';
import { userNameSchema } from '../schemas/accounts.js';
import type { oauthLoginSchema, oauthQuerySchema } from '../schemas/plus.js';
import type { ServiceContext } from '../services/context.js';
import { PLAN_LEVELS } from './license.js';
import { planOf } from './plan.js';

const TIMEOUT_MS = 10_000;
const USED = 'oauth.state.used.';

interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/**
 * Login through GitHub (or a GitHub Enterprise Server) as an OAuth2 app, `plus.codehost`. Available when it is
 * configured and an organization of the server holds a valid enterprise license (spec). The state is a signed
 * token of ten minutes that works once; the code is exchanged with the client secret, which never leaves the
 * server nor appears in a message.
 */
export class CodehostService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly auth: AuthService,
  ) {}

  async authorizeUrl(query: z.output<typeof oauthQuerySchema>): Promise<{ url: string }> {
    const codehost = await this.#available();
    const state = await this.ctx.tokens.issue('oauth', 'github', { jti: randomUUID(), state: query });
    const url = new URL(codehost.authorize_url);
    url.searchParams.set('client_id', codehost.client_id);
    url.searchParams.set('redirect_uri', this.#redirectUri());
    url.searchParams.set('scope', 'read:user user:email');
    url.searchParams.set('state', state.token);
    return { url: url.toString() };
  }

  async login(input: z.output<typeof oauthLoginSchema>) {
    const codehost = await this.#available();
    const claims = await this.ctx.tokens.verify(input.state, 'oauth');
    const jti = claims.jti;
    if (!jti) throw new UnauthorizedError('the login state is invalid; start the login again');
    await this.ctx.storage.transaction(async (tx) => {
      if (await tx.meta.get(USED + jti)) {
        throw new UnauthorizedError('this login state was already used; start the login again');
      }
      await tx.meta.set(USED + jti, this.ctx.now().toISOString());
    });
    const token = await this.#exchange(codehost, input.code);
    const identity = await this.#identity(codehost.api_url, token);
    const session = await this.auth.signInVerified(identity, {
      invite: claims.state?.invite,
      claim: claims.state?.claim,
    });
    const plan = PLAN_LEVELS.find((level) => level === claims.state?.plan);
    return { ...session, ...(plan ? { plan } : {}) };
  }

  async #available() {
    const codehost = this.ctx.config.current.plus?.codehost;
    if (!codehost) {
      throw new ForbiddenError(
        'login with GitHub is not available on this server: plus.codehost is not configured; log in by e-mail',
      );
    }
    const licensed = await this.ctx.storage.read((r) => r.organizations.licensed());
    for (const organization of licensed) {
      if ((await planOf(this.ctx, organization)).level === 'enterprise') return codehost;
    }
    throw new ForbiddenError(
      'login with GitHub is not available on this server: it needs an organization with a valid enterprise license; log in by e-mail',
    );
  }

  #redirectUri(): string {
    return new URL('/auth/github', this.ctx.config.current.console.url).toString();
  }

  async #exchange(
    codehost: { client_id: string; client_secret: string; token_url: string },
    code: string,
  ): Promise<string> {
    const body = (await this.#call(codehost.token_url, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: codehost.client_id,
        client_secret: codehost.client_secret,
        code,
        redirect_uri: this.#redirectUri(),
      }),
    })) as { access_token?: unknown; error?: unknown };
    if (typeof body.access_token === 'string' && body.access_token) return body.access_token;
    const reason = typeof body.error === 'string' ? body.error.replace(/[^\w.-]/g, '') : 'no access token';
    throw new InputError(
      `code: GitHub refused it (${reason}); codes work once and for ten minutes: start the login again`,
    );
  }

  async #identity(apiUrl: string, token: string): Promise<{ email: string; name: string }> {
    const headers = { accept: 'application/vnd.github+json', authorization: `Bearer ${token}` };
    const base = apiUrl.replace(/\/+$/, '');
    const user = (await this.#call(`${base}/user`, { headers })) as { login?: unknown; name?: unknown };
    const emails = (await this.#call(`${base}/user/emails`, { headers })) as GitHubEmail[];
    const primary = Array.isArray(emails) ? emails.find((e) => e.primary && e.verified) : undefined;
    if (!primary || typeof primary.email !== 'string') {
      throw new ForbiddenError(
        'your GitHub account has no verified primary e-mail address; verify it at GitHub, then log in again',
      );
    }
    const name = [user.name, user.login].find((n) => userNameSchema.safeParse(n).success);
    return { email: primary.email.toLowerCase(), name: typeof name === 'string' ? name : 'GitHub user' };
  }

  async #call(url: string, init: RequestInit): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch {
      throw new UnavailableError(`GitHub (${new URL(url).host}) could not be reached; try again later`, {
        retry_after_seconds: 30,
      });
    }
    if (!response.ok) {
      throw new UnavailableError(
        `GitHub (${new URL(url).host}) answered ${response.status} to ${new URL(url).pathname}; try again later`,
        { retry_after_seconds: 30 },
      );
    }
    return response.json().catch(() => {
      throw new UnavailableError(`GitHub (${new URL(url).host}) answered something that is not JSON`);
    });
  }
}
