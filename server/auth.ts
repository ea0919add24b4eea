import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ANONYMOUS,
  ForbiddenError,
  isRunnerKey,
  Tokens,
  UnauthorizedError,
  type ApiTokensService,
  type Caller,
  type RunnerRecord,
  type RunnersService,
  type Storage,
  type UserCaller,
} from '../core/index.js';
import type { FailureLimiter } from './rate-limit.js';

type Credential = { state: 'absent' } | { state: 'malformed' } | { state: 'bearer'; token: string };

/** Reads `Authorization: Bearer <token>` (scheme case-insensitive, value trimmed). */
function credentialOf(request: FastifyRequest): Credential {
  const header = request.headers.authorization;
  if (header === undefined) return { state: 'absent' };
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ? { state: 'bearer', token: match[1] } : { state: 'malformed' };
}

const MISSING =
  'missing Authorization header: send Authorization: Bearer <token> (an API token or a session token)';
const MALFORMED = 'malformed Authorization header: expected Authorization: Bearer <token>';
const MISSING_RUNNER_KEY =
  'this endpoint needs a runner key: send Authorization: Bearer <runner key> (benchtrack runner create prints it)';

/**
 * Resolves who is calling, once per request. Routes say whether they need a user (`required`) or accept
 * anonymous callers (`optional`). A missing credential where one is required, a malformed header and an invalid
 * token are 401 everywhere (the reference answers 400 for the first two; 401 is what a client retries with a
 * token).
 */
export class Authenticator {
  readonly #cache = new WeakMap<FastifyRequest, Promise<Caller>>();

  constructor(
    private readonly storage: Storage,
    private readonly tokens: Tokens,
    private readonly apiTokens: ApiTokensService,
    private readonly runners: RunnersService,
    private readonly failures: FailureLimiter,
  ) {}

  /**
   * The runner whose key the request carries (runner endpoints, and a runner's report). A user's token is no
   * runner key: 401, like an invalid key. Failures count against the client as every failed credential does.
   */
  async runner(request: FastifyRequest): Promise<RunnerRecord> {
    const credential = credentialOf(request);
    if (credential.state === 'absent') throw new UnauthorizedError(MISSING_RUNNER_KEY);
    if (credential.state === 'malformed') throw new UnauthorizedError(MALFORMED);
    const key = credential.token;
    return this.failures.check(request.ip, key, () => {
      if (!isRunnerKey(key))
        return Promise.reject(new UnauthorizedError(`${MISSING_RUNNER_KEY}; a user's token is not one`));
      return this.runners.authenticate(key);
    });
  }

  async required(request: FastifyRequest): Promise<UserCaller> {
    const credential = credentialOf(request);
    if (credential.state === 'absent') throw new UnauthorizedError(MISSING);
    if (credential.state === 'malformed') throw new UnauthorizedError(MALFORMED);
    return (await this.#resolve(request, credential.token)) as UserCaller;
  }

  async optional(request: FastifyRequest): Promise<Caller> {
    const credential = credentialOf(request);
    if (credential.state === 'absent') return ANONYMOUS;
    if (credential.state === 'malformed') throw new UnauthorizedError(MALFORMED);
    return this.#resolve(request, credential.token);
  }

  #resolve(request: FastifyRequest, token: string): Promise<Caller> {
    let caller = this.#cache.get(request);
    if (!caller) {
      caller = this.#verify(request.ip, token);
      this.#cache.set(request, caller);
    }
    return caller;
  }

  async #verify(ip: string, token: string): Promise<Caller> {
    const caller = await this.failures.check(ip, token, () => this.#user(token));
    if (caller.user.locked) throw new ForbiddenError('this account is locked; ask a server administrator');
    return caller;
  }

  async #user(token: string): Promise<UserCaller> {
    const audience = Tokens.audienceOf(token);
    if (audience === 'api_key')
      return { kind: 'user', user: await this.apiTokens.authenticate(token), via: 'api_token' };
    if (audience !== 'client')
      throw new UnauthorizedError('the token is invalid; log in again or use an API token');
    const claims = await this.tokens.verify(token, 'client');
    const user = await this.storage.read((r) => r.users.find({ uuid: claims.sub }));
    if (!user) throw new UnauthorizedError('the account of this token no longer exists');
    return { kind: 'user', user, via: 'session' };
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling: a user, or anonymous without a token (a malformed header or an invalid token is 401). */
    caller(): Promise<Caller>;
    /** The calling user: 400 without a token or with a malformed header, 401 with an invalid token. */
    user(): Promise<UserCaller>;
    /** The calling runner, by its key: 400 without one, 401 with an invalid, rotated or archived runner's key. */
    runner(): Promise<RunnerRecord>;
  }
}

/** Gives every request `caller()` and `user()`, resolved once per request by the authenticator. */
export function decorateCaller(app: Pick<FastifyInstance, 'decorateRequest'>, auth: Authenticator): void {
  app.decorateRequest('caller', function (this: FastifyRequest) {
    return auth.optional(this);
  });
  app.decorateRequest('user', function (this: FastifyRequest) {
    return auth.required(this);
  });
  app.decorateRequest('runner', function (this: FastifyRequest) {
    return auth.runner(this);
  });
}
