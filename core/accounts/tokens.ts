import { webcrypto } from 'node:crypto';
import { decodeJwt, errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Config } from '../config/schema.js';
import { UnauthorizedError } from '../errors.js';

/**
 * Token audiences: the e-mailed login link (short-lived), the e-mailed link that confirms a new address, the
 * console session (days), API tokens (chosen lifetime, revocable), invitations, the state of a code-host login
 * (ten minutes, single-use) and the unsubscribe link of a notification e-mail (months: mail is read late). A
 * token is only accepted where its audience is expected.
 */
export type Audience = 'auth' | 'email' | 'client' | 'api_key' | 'invite' | 'oauth' | 'unsubscribe';

/** Default lifetimes in seconds. */
export const TOKEN_TTL = {
  auth: 30 * 60,
  email: 60 * 60,
  client: 30 * 24 * 3600,
  invite: 7 * 24 * 3600,
  oauth: 600,
  unsubscribe: 180 * 24 * 3600,
  /** API tokens without a chosen lifetime: effectively unlimited (u32::MAX seconds, as the reference). */
  api_key: 4_294_967_295,
} as const satisfies Record<Audience, number>;

export interface Claims extends JWTPayload {
  sub: string;
  aud: Audience;
  exp: number;
  iat: number;
  /** Invitation: the invited address; e-mail change: the new address. */
  email?: string;
  /** E-mailed links: the user's link sequence number when it was sent (see `links.ts`). */
  seq?: number;
  /** Code-host login: what to do once the user is known (an invitation to accept, an organization to claim). */
  state?: OAuthState;
  /** Unsubscribe link: the project whose e-mails stop. */
  project?: string;
}

export interface OAuthState {
  readonly invite?: string;
  readonly claim?: string;
  readonly plan?: string;
}

export interface IssuedToken {
  readonly token: string;
  readonly issued: Date;
  readonly expires: Date;
}

/** The running configuration; read on every call so an update of issuer or key applies at once. */
export interface LiveConfig {
  readonly current: Config;
}

/** Issues and verifies the JWTs of every audience (HS256, `security.secret_key`, `security.issuer`). */
export class Tokens {
  /** The HMAC key of the current secret, imported once: an import per token was a third of a session's check. */
  #key: { readonly secret: string; readonly key: Promise<webcrypto.CryptoKey> } | undefined;

  constructor(
    private readonly config: LiveConfig,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The key of `security.secret_key` as it is now (a changed secret is imported anew). */
  #keyOf(secret: string): Promise<webcrypto.CryptoKey> {
    if (this.#key?.secret !== secret) {
      const key = webcrypto.subtle.importKey(
        'raw',
        new TextEncoder().encode(secret),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign', 'verify'],
      );
      this.#key = { secret, key };
    }
    return this.#key.key;
  }

  async issue(
    audience: Audience,
    subject: string,
    options: {
      ttlSeconds?: number;
      jti?: string;
      email?: string;
      seq?: number;
      state?: OAuthState;
      project?: string;
    } = {},
  ): Promise<IssuedToken> {
    const { issuer, secret_key } = this.config.current.security;
    const issuedSeconds = Math.floor(this.now().getTime() / 1000);
    const expiresSeconds = issuedSeconds + (options.ttlSeconds ?? TOKEN_TTL[audience]);
    const jwt = new SignJWT({
      ...(options.email ? { email: options.email } : {}),
      ...(options.seq !== undefined ? { seq: options.seq } : {}),
      ...(options.state ? { state: options.state } : {}),
      ...(options.project ? { project: options.project } : {}),
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject(subject)
      .setIssuedAt(issuedSeconds)
      .setExpirationTime(expiresSeconds);
    if (options.jti) jwt.setJti(options.jti);
    const token = await jwt.sign(await this.#keyOf(secret_key));
    return { token, issued: new Date(issuedSeconds * 1000), expires: new Date(expiresSeconds * 1000) };
  }

  /** Verifies signature, algorithm, issuer, audience and expiry; any failure is an {@link UnauthorizedError}. */
  async verify(token: string, audience: Audience): Promise<Claims> {
    const { issuer, secret_key } = this.config.current.security;
    try {
      const { payload } = await jwtVerify(token, await this.#keyOf(secret_key), {
        issuer,
        audience,
        algorithms: ['HS256'],
        currentDate: this.now(),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      return payload as Claims;
    } catch (error) {
      throw new UnauthorizedError(describeFailure(error, audience));
    }
  }

  /** The audience a token claims, read without verifying it (to pick how to verify). */
  static audienceOf(token: string): string | undefined {
    try {
      const aud = decodeJwt(token).aud;
      return typeof aud === 'string' ? aud : undefined;
    } catch {
      return undefined;
    }
  }
}

function describeFailure(error: unknown, audience: Audience): string {
  const what =
    audience === 'auth' || audience === 'email'
      ? 'confirmation link'
      : audience === 'invite'
        ? 'invitation'
        : audience === 'oauth'
          ? 'login state'
          : audience === 'unsubscribe'
            ? 'unsubscribe link'
            : 'token';
  if (error instanceof errors.JWTExpired) return `the ${what} has expired; ${renew(audience)}`;
  if (error instanceof errors.JWTClaimValidationFailed)
    return `the ${what} is not valid here (${error.claim}); ${renew(audience)}`;
  return `the ${what} is invalid; ${renew(audience)}`;
}

function renew(audience: Audience): string {
  switch (audience) {
    case 'auth':
      return 'log in again to get a new link';
    case 'email':
      return 'change the e-mail address again to get a new link';
    case 'invite':
      return 'ask for a new invitation';
    case 'client':
      return 'log in again';
    case 'api_key':
      return 'create a new API token';
    case 'oauth':
      return 'start the login again';
    case 'unsubscribe':
      return "log in and change the project's e-mail choice on your account page";
  }
}
