import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, parseConfigDocument } from '../../core/index.js';
import { bearer, signUp } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/engine.js';

/**
 * The failure limiter (issue 14, item 6): failures are counted per credential and per address, a valid
 * credential is never refused by it, X-Forwarded-For counts only from configured proxies, and every 429 says
 * when to retry.
 */

const LIMIT = 5;
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const organizations = (app: TestApp, token: string, remoteAddress: string) =>
  app.app.inject({ method: 'GET', url: '/v0/organizations', headers: bearer(token), remoteAddress });

function expectRetryAfter(response: { statusCode: number; headers: Record<string, unknown> }) {
  expect(response.statusCode).toBe(429);
  const seconds = Number(response.headers['retry-after']);
  expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60, `Retry-After ${seconds}`).toBe(true);
}

describe.runIf(onPostgres)('failure limiter of several API processes on one PostgreSQL database', () => {
  it('counts the failures sent to every process together', async () => {
    t = await createTestApp({}, { authAttemptsPerMinute: LIMIT });
    const other = await createTestApp(
      { database: { url: t.config.database.url } },
      { authAttemptsPerMinute: LIMIT },
    );
    try {
      // alternately to each: neither process alone sees LIMIT failures
      for (let i = 0; i < LIMIT; i++)
        expect(
          (await organizations(i % 2 ? other : t, 'leaked.shared.token', `10.9.0.${i + 1}`)).statusCode,
        ).toBe(401);
      expectRetryAfter(await organizations(other, 'leaked.shared.token', '10.9.0.100'));
      expectRetryAfter(await organizations(t, 'leaked.shared.token', '10.9.0.101'));
    } finally {
      await other.close();
    }
  });
});

describe('failure limiter', () => {
  it('never refuses a valid credential from an address that sent a burst of bad ones', async () => {
    t = await createTestApp({}, { authAttemptsPerMinute: LIMIT });
    const ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
    for (let i = 0; i < LIMIT; i++)
      expect((await organizations(t, `bad.token.${i}`, '10.1.1.1')).statusCode).toBe(401);
    expectRetryAfter(await organizations(t, 'bad.token.more', '10.1.1.1'));
    expect((await organizations(t, ada.token, '10.1.1.1')).statusCode).toBe(200);
  });

  it('counts failures per credential, whatever address sends it', async () => {
    t = await createTestApp({}, { authAttemptsPerMinute: LIMIT });
    for (let i = 0; i < LIMIT; i++)
      expect((await organizations(t, 'leaked.old.token', `10.2.0.${i + 1}`)).statusCode).toBe(401);
    expectRetryAfter(await organizations(t, 'leaked.old.token', '10.2.0.200'));
    expect((await organizations(t, 'another.bad.token', '10.2.0.201')).statusCode).toBe(401);
  });

  it('puts Retry-After on the 429 of the authentication endpoints', async () => {
    t = await createTestApp({}, { authAttemptsPerMinute: LIMIT });
    const login = () =>
      t!.app.inject({
        method: 'POST',
        url: '/v0/auth/login',
        payload: { email: 'nobody@example.com' },
        remoteAddress: '10.3.0.1',
      });
    for (let i = 0; i < LIMIT; i++) expect((await login()).statusCode).toBeLessThan(429);
    expectRetryAfter(await login());
  });

  it('does not let a valid login link be refused after a burst of bad ones from its address', async () => {
    t = await createTestApp({}, { authAttemptsPerMinute: LIMIT });
    await t.app.inject({
      method: 'POST',
      url: '/v0/auth/signup',
      payload: { name: 'Ada Lovelace', email: 'ada@example.com', i_agree: true },
    });
    const token = /token=([\w.-]+)/.exec(t.logText())?.[1];
    const confirm = (value: string) =>
      t!.app.inject({
        method: 'POST',
        url: '/v0/auth/confirm',
        payload: { token: value },
        remoteAddress: '10.4.0.1',
      });
    for (let i = 0; i < LIMIT; i++) expect((await confirm(`forged.link.${i}`)).statusCode).toBe(401);
    expectRetryAfter(await confirm('forged.link.more'));
    expect((await confirm(token as string)).statusCode).toBe(200);
  });
});

describe('X-Forwarded-For', () => {
  /** Bad tokens from one client, then another bad token whose header names someone else. */
  async function burstThenOther(trusted: string[], burstFrom: string, otherFrom: string): Promise<number> {
    t = await createTestApp(
      { server: { bind_address: '127.0.0.1:0', trusted_proxies: trusted } },
      { authAttemptsPerMinute: LIMIT },
    );
    const { port } = t.app.server.address() as AddressInfo;
    const call = (token: string, forwarded: string) =>
      fetch(`http://127.0.0.1:${port}/v0/organizations`, {
        headers: { ...bearer(token), 'x-forwarded-for': forwarded },
      });
    for (let i = 0; i < LIMIT; i++) expect((await call(`bad.token.${i}`, burstFrom)).status).toBe(401);
    return (await call('other.bad.token', otherFrom)).status;
  }

  it('is ignored by default: every client behind one socket address shares its count', async () => {
    expect(await burstThenOther([], '203.0.113.5', '203.0.113.6')).toBe(429);
  });

  it('names the client when the request comes from a configured proxy', async () => {
    expect(await burstThenOther(['127.0.0.1'], '203.0.113.5', '203.0.113.6')).toBe(401);
  });

  it('names the client the trusted proxy saw, not an address the client wrote in front of it', async () => {
    expect(
      await burstThenOther(['127.0.0.1'], '198.51.100.1, 203.0.113.5', '198.51.100.2, 203.0.113.5'),
    ).toBe(429);
  });

  it('accepts addresses and CIDR blocks in server.trusted_proxies, and refuses anything else naming the key', () => {
    const parse = (trusted: unknown) =>
      parseConfigDocument({ server: { trusted_proxies: trusted } } as never, {
        kind: 'default',
        description: 'test',
      });
    expect(parse(['10.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8']).config.server.trusted_proxies).toEqual([
      '10.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
    for (const bad of [['proxy.example'], ['10.0.0.0/33'], '10.0.0.1']) {
      let error: unknown;
      try {
        parse(bad);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toContain('server.trusted_proxies');
    }
  });
});
