import { describe, expect, it } from 'vitest';
import { parseConfigDocument } from './load.js';
import { REDACTED, redactConfig, secretValues } from './redact.js';

const source = { kind: 'env', description: 'test' } as const;
const URL = 'postgres://benchtrack:primary-pass-0001@db.internal:5432/benchtrack';
const REPLICA = 'postgres://reader:replica-pass-0002@replica-1.internal:5432/benchtrack';

const parse = (database: Record<string, unknown>) =>
  parseConfigDocument({ security: { secret_key: 'test-secret-key-0123456789abcdef' }, database }, source);

describe('database.replicas', () => {
  it('lists read-only URLs of the database.url database', () => {
    expect(parse({ url: URL, replicas: [REPLICA] }).config.database.replicas).toEqual([REPLICA]);
  });

  it.each([
    [{ replicas: [REPLICA] }, 'database.replicas: needs database.url'],
    [
      { url: URL, replicas: ['replica-1.internal'] },
      'database.replicas[0]: must be a URL such as postgres://',
    ],
    [{ url: URL, replicas: REPLICA }, 'database.replicas'],
  ])('refuses %j naming the key', (database, message) => {
    expect(() => parse(database)).toThrow(message);
  });

  it('redacts the password of every replica, in the returned configuration and in logs', () => {
    const { config } = parse({ url: URL, replicas: [REPLICA] });
    expect(redactConfig(config).database.replicas).toEqual([
      `postgres://reader:${encodeURIComponent(REDACTED)}@replica-1.internal:5432/benchtrack`,
    ]);
    expect(secretValues(config)).toContain('replica-pass-0002');
  });
});
