import { describe, expect, it } from 'vitest';
import { parseConfigDocument } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { UnauthorizedError } from '../errors.js';
import { Tokens } from './tokens.js';

const configWith = (secret_key: string): Config =>
  parseConfigDocument({ security: { secret_key } }, { kind: 'default', description: 'tokens test' }).config;

describe('tokens', () => {
  it('verifies what it issued, and follows a changed secret key at once', async () => {
    const live = { current: configWith('first-secret-key-0123456789abcdef') };
    const tokens = new Tokens(live);
    const first = await tokens.issue('client', 'user-1');
    expect((await tokens.verify(first.token, 'client')).sub).toBe('user-1');
    await expect(tokens.verify(first.token, 'api_key')).rejects.toBeInstanceOf(UnauthorizedError);

    live.current = configWith('second-secret-key-0123456789abcdef');
    await expect(tokens.verify(first.token, 'client')).rejects.toBeInstanceOf(UnauthorizedError);
    const second = await tokens.issue('client', 'user-2');
    expect((await tokens.verify(second.token, 'client')).sub).toBe('user-2');
    // a token signed with the second key is refused by a server that still has the first
    const other = new Tokens({ current: configWith('first-secret-key-0123456789abcdef') });
    await expect(other.verify(second.token, 'client')).rejects.toBeInstanceOf(UnauthorizedError);
  });
});
