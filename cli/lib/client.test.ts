import { describe, expect, it } from 'vitest';
import { tokenSubject, versionWarning } from './client.js';

describe('versionWarning', () => {
  it('is silent when the versions match and names both when they differ', () => {
    expect(versionWarning('0.1.0', '0.1.0', 'http://api')).toBeUndefined();
    expect(versionWarning('0.2.0', '0.1.0', 'http://api')).toBe(
      'the API at http://api is version 0.2.0 and this client 0.1.0; some commands may not work: install benchtrack@0.2.0 to match',
    );
    expect(versionWarning(undefined, '0.1.0', 'http://api')).toContain('is it a Benchtrack API?');
  });
});

describe('tokenSubject', () => {
  it('reads the user UUID from a JWT, and nothing from anything else', () => {
    const payload = Buffer.from(JSON.stringify({ sub: 'user-uuid', aud: 'api_key' })).toString('base64url');
    expect(tokenSubject(`header.${payload}.signature`)).toBe('user-uuid');
    expect(tokenSubject('not-a-jwt')).toBeUndefined();
    expect(tokenSubject(undefined)).toBeUndefined();
  });
});
