import { createHash, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../errors.js';
import { tokenJson, type newTokenSchema } from '../schemas/accounts.js';
import type { ServiceContext } from '../services/context.js';
import type { ApiTokenRecord, UserRecord } from '../storage/records.js';
import type { ListOptions } from '../storage/tables.js';
import { TOKEN_TTL } from './tokens.js';
import { requireUser, type UserCaller } from './users.js';

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * API tokens: JWTs with the `api_key` audience, owned by a user, shown once at creation and stored only as a
 * hash. Revocation takes effect on the next request.
 */
export class ApiTokensService {
  constructor(private readonly ctx: ServiceContext) {}

  async create(caller: UserCaller, userRef: string, input: z.output<typeof newTokenSchema>) {
    if (caller.via !== 'session') {
      throw new ForbiddenError('an API token cannot create API tokens; log in to create one');
    }
    return this.ctx.storage.transaction(async (tx) => {
      const user = await requireUser(tx, caller, userRef);
      const uuid = randomUUID();
      const issued = await this.ctx.tokens.issue('api_key', user.uuid, {
        jti: uuid,
        ttlSeconds: input.ttl ?? TOKEN_TTL.api_key,
      });
      const record = await tx.tokens.insert({
        uuid,
        user_id: user.id,
        name: input.name,
        token_hash: tokenHash(issued.token),
        creation: issued.issued,
        expiration: issued.expires,
        revoked: null,
      });
      return { ...tokenJson(record, user), token: issued.token };
    });
  }

  async list(caller: UserCaller, userRef: string, options: ListOptions<ApiTokenRecord> & { name?: string }) {
    return this.ctx.storage.read(async (r) => {
      const user = await requireUser(r, caller, userRef);
      const page = await r.tokens.list(
        { user_id: user.id, ...(options.name ? { name: options.name } : {}) },
        options,
      );
      return { items: page.items.map((t) => tokenJson(t, user)), total: page.total };
    });
  }

  async get(caller: UserCaller, userRef: string, tokenUuid: string) {
    return this.ctx.storage.read(async (r) => {
      const { user, token } = await this.#find(r, caller, userRef, tokenUuid);
      return tokenJson(token, user);
    });
  }

  async rename(caller: UserCaller, userRef: string, tokenUuid: string, name: string) {
    return this.ctx.storage.transaction(async (tx) => {
      const { user, token } = await this.#find(tx, caller, userRef, tokenUuid);
      await tx.tokens.update({ id: token.id }, { name });
      return tokenJson({ ...token, name }, user);
    });
  }

  /** Revokes a token for good; it stops working at once. */
  async revoke(caller: UserCaller, userRef: string, tokenUuid: string) {
    return this.ctx.storage.transaction(async (tx) => {
      const { user, token } = await this.#find(tx, caller, userRef, tokenUuid);
      const revoked = token.revoked ?? this.ctx.now();
      await tx.tokens.update({ id: token.id }, { revoked });
      return tokenJson({ ...token, revoked }, user);
    });
  }

  /** The user an API token authenticates; any problem is a 401 that does not say which check failed. */
  async authenticate(token: string): Promise<UserRecord> {
    const claims = await this.ctx.tokens.verify(token, 'api_key');
    const found = await this.ctx.storage.read(async (r) => {
      const record = claims.jti ? await r.tokens.find({ uuid: claims.jti }) : undefined;
      const user = record ? await r.users.find({ id: record.user_id }) : undefined;
      return record && user ? { record, user } : undefined;
    });
    const now = this.ctx.now();
    if (
      !found ||
      found.record.revoked !== null ||
      found.record.expiration <= now ||
      found.record.token_hash !== tokenHash(token) ||
      found.user.uuid !== claims.sub
    ) {
      throw new UnauthorizedError('the API token is invalid, expired or revoked; create a new one');
    }
    return found.user;
  }

  async #find(r: Parameters<typeof requireUser>[0], caller: UserCaller, userRef: string, tokenUuid: string) {
    const user = await requireUser(r, caller, userRef);
    const token = await r.tokens.find({ uuid: tokenUuid.toLowerCase(), user_id: user.id });
    if (!token) throw new NotFoundError(`API token "${tokenUuid}" not found`);
    return { user, token };
  }
}
