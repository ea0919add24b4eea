import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * Issue 14 item 7: one name rule for every kind of name and every path that creates one. Each hostile name is
 * sent through each path; every answer is a 400 naming the field, and nothing is written.
 */

const HOSTILE: Record<string, string> = {
  NUL: 'bad\u0000name',
  ESC: 'bad\u001b[31mname',
  newline: 'bad\nname',
  'carriage return': 'bad\rname',
  tab: 'bad\tname',
  DEL: 'bad\u007fname',
  'C1 control (NEL)': 'bad\u0085name',
  'line separator': 'bad\u2028name',
  'bidi override U+202E': 'bad\u202ename',
  'bidi embedding U+202A': 'bad\u202aname',
  'bidi isolate U+2066': 'bad\u2066name',
  'pop isolate U+2069': 'bad\u2069name',
  'zero-width space': 'bad\u200bname',
  'zero-width joiner': 'bad\u200dname',
  'right-to-left mark': 'bad\u200fname',
  'word joiner': 'bad\u2060name',
  BOM: 'bad\ufeffname',
  'whitespace only': '   ',
  'lone high surrogate': 'bad\ud800name',
  'lone low surrogate': 'bad\udc00name',
  'replacement character': 'bad\ufffdname',
};

/** Names of characters that do not show, none of them on a list: each breaks the "a visible character" rule. */
const INVISIBLE_ONLY: Record<string, string> = {
  'Hangul filler': '\u3164',
  'halfwidth Hangul filler': '\uffa0\uffa0',
  'Hangul choseong filler': '\u115f',
  'Braille blank': '\u2800\u2800\u2800',
  'tag characters': '\u{e0041}\u{e0042}',
  'combining grapheme joiner': '\u034f',
  'Mongolian vowel separator': '\u180e',
  'inhibit symmetric swapping U+206A': '\u206a',
  'variation selectors': '\ufe0f\ufe00',
  'combining marks alone': '\u0301\u0308',
  'no-break and ideographic spaces': '\u00a0\u3000',
};

let t: TestApp;
let ada: Session;
const P = '/v0/projects/names';
const times = { start_time: '2026-06-01T00:00:00Z', end_time: '2026-06-01T00:01:00Z' };
const bmf = (benchmark: string, measure = 'latency', metric: object = { value: 1 }) =>
  JSON.stringify({ [benchmark]: { [measure]: metric } });

interface Attack {
  readonly method: 'POST' | 'PATCH';
  readonly url: string;
  readonly anonymous?: boolean;
  /** Run context values are trimmed and a blank one counts as absent, so whitespace-only is not an attack there. */
  readonly trimmed?: boolean;
  /** The field the 400 must name. */
  readonly field: string;
  body(name: string): object;
}

const ATTACKS: Record<string, Attack> = {
  organization: { method: 'POST', url: '/v0/organizations', field: 'body.name', body: (name) => ({ name }) },
  'organization rename': {
    method: 'PATCH',
    url: '/v0/organizations/ada-lovelace',
    field: 'body.name',
    body: (name) => ({ name }),
  },
  project: {
    method: 'POST',
    url: '/v0/organizations/ada-lovelace/projects',
    field: 'body.name',
    body: (name) => ({ name }),
  },
  'project rename': { method: 'PATCH', url: P, field: 'body.name', body: (name) => ({ name }) },
  branch: { method: 'POST', url: `${P}/branches`, field: 'body.name', body: (name) => ({ name }) },
  testbed: { method: 'POST', url: `${P}/testbeds`, field: 'body.name', body: (name) => ({ name }) },
  benchmark: { method: 'POST', url: `${P}/benchmarks`, field: 'body.name', body: (name) => ({ name }) },
  measure: {
    method: 'POST',
    url: `${P}/measures`,
    field: 'body.name',
    body: (name) => ({ name, units: 'ns' }),
  },
  'measure units': {
    method: 'POST',
    url: `${P}/measures`,
    field: 'body.units',
    body: (units) => ({ name: 'Widgets', units }),
  },
  'user name': {
    method: 'PATCH',
    url: '/v0/users/ada-lovelace',
    field: 'body.name',
    body: (name) => ({ name }),
  },
  'API token name': {
    method: 'POST',
    url: '/v0/users/ada-lovelace/tokens',
    field: 'body.name',
    body: (name) => ({ name }),
  },
  'plot title': {
    method: 'POST',
    url: `${P}/plots`,
    field: 'body.title',
    body: (title) => ({
      title,
      window: 3600,
      branches: ['main'],
      testbeds: ['localhost'],
      benchmarks: ['sort'],
      measures: ['latency'],
    }),
  },
  'report branch (created on the fly)': {
    method: 'POST',
    url: `${P}/reports`,
    field: 'body.branch',
    body: (branch) => ({ branch, testbed: 'localhost', results: [bmf('sort')], ...times }),
  },
  'report testbed (created on the fly)': {
    method: 'POST',
    url: `${P}/reports`,
    field: 'body.testbed',
    body: (testbed) => ({ branch: 'main', testbed, results: [bmf('sort')], ...times }),
  },
  'report benchmark (created on the fly)': {
    method: 'POST',
    url: `${P}/reports`,
    field: 'results: benchmark',
    body: (name) => ({ branch: 'main', testbed: 'localhost', results: [bmf(name)], ...times }),
  },
  'report measure (created on the fly)': {
    method: 'POST',
    url: `${P}/reports`,
    field: 'measure',
    body: (name) => ({ branch: 'main', testbed: 'localhost', results: [bmf('sort', name)], ...times }),
  },
  'report inline threshold measure (created on the fly)': {
    method: 'POST',
    url: `${P}/reports`,
    field: 'body.thresholds.models',
    body: (name) => ({
      branch: 'main',
      testbed: 'localhost',
      results: [bmf('sort')],
      thresholds: { models: { [name]: { test: 'percentage', upper_boundary: 0.1 } } },
      ...times,
    }),
  },
  'run project (created on the fly, anonymous)': {
    method: 'POST',
    url: '/v0/run',
    anonymous: true,
    field: 'body.project',
    body: (project) => ({ project, results: [bmf('sort')], ...times }),
  },
  'run context repository name (becomes the project name)': {
    method: 'POST',
    url: '/v0/run',
    anonymous: true,
    trimmed: true,
    field: 'context repo/name',
    body: (repo) => ({
      context: { 'benchtrack.dev/v0/repo/name': `x${repo}` },
      results: [bmf('sort')],
      ...times,
    }),
  },
  'run context branch name': {
    method: 'POST',
    url: '/v0/run',
    trimmed: true,
    field: 'context branch/ref/name',
    body: (branch) => ({
      project: 'names',
      context: { 'benchtrack.dev/v0/branch/ref/name': `x${branch}` },
      results: [bmf('sort')],
      ...times,
    }),
  },
};

/** Row counts of every table a name can land in. */
const counts = () =>
  t.storage.read(async (r) => ({
    users: await r.users.count({}),
    tokens: await r.tokens.count({}),
    organizations: await r.organizations.count({}),
    projects: await r.projects.count({}),
    branches: await r.branches.count({}),
    testbeds: await r.testbeds.count({}),
    benchmarks: await r.benchmarks.count({}),
    measures: await r.measures.count({}),
    reports: await r.reports.count({}),
    plots: await r.plots.count({}),
    names: [
      ...(await r.organizations.all({})).map((o) => o.name),
      ...(await r.projects.all({})).map((p) => p.name),
      ...(await r.branches.all({})).map((b) => b.name),
      ...(await r.testbeds.all({})).map((b) => b.name),
    ].sort(),
  }));

beforeAll(async () => {
  t = await createTestApp();
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Names' });
});
afterAll(() => t.close());

describe('the name rule', () => {
  for (const [path, attack] of Object.entries(ATTACKS)) {
    it(`refuses every hostile ${path} with a 400 naming the field, and writes nothing`, async () => {
      const before = await counts();
      // the trimmed paths put `x` before the name, which makes an invisible-only name visible
      const cases = { ...HOSTILE, ...(attack.trimmed ? {} : INVISIBLE_ONLY) };
      for (const [what, name] of Object.entries(cases)) {
        if (attack.trimmed && name.trim() === '') continue;
        // Sent as JSON text: JSON.stringify writes a lone surrogate as the escape `\ud800`, as an attacker would.
        const payload = JSON.stringify(attack.body(name));
        if (what.startsWith('lone')) expect(payload).toMatch(/\\ud[89a-f][0-9a-f]{2}/);
        const response = await t.app.inject({
          method: attack.method,
          url: attack.url,
          headers: { 'content-type': 'application/json', ...(attack.anonymous ? {} : bearer(ada.token)) },
          payload,
        });
        expect(response.statusCode, `${what}: ${response.body}`).toBe(400);
        const body = response.json() as { error_code: string; message: string };
        expect(body.error_code, what).toBe('invalid_input');
        expect(body.message, what).toContain(attack.field);
        expect(body.message, what).toMatch(/must (not contain|not be empty|hold a visible character)/);
      }
      expect(await counts()).toEqual(before);
    });
  }

  it('names the character and where it is, without echoing it raw', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `${P}/reports`,
      headers: bearer(ada.token),
      payload: { branch: 'main', testbed: 'localhost', results: [bmf('evil\u202etxt.exe')], ...times },
    });
    expect(response.statusCode).toBe(400);
    const { message } = response.json() as { message: string };
    expect(message).toContain('"evil\\u{202E}txt.exe"');
    expect(message).toContain('found U+202E at character 5');
    expect(message).not.toContain('\u202e');
  });

  it('still takes names in any script, emoji and inner spaces', async () => {
    for (const name of [
      'Linux x86_64',
      'Überprüfung',
      '名前 テスト',
      'сервер',
      'emoji 🚀',
      "O'Brien, Jr.",
      'e\u0301te\u0301',
      '한글',
      '\u2800x',
      '❤\ufe0f',
    ]) {
      const testbed = await t.app.inject({
        method: 'POST',
        url: `${P}/testbeds`,
        headers: bearer(ada.token),
        payload: { name },
      });
      expect(testbed.statusCode, testbed.body).toBe(201);
      expect(testbed.json().name).toBe(name);
    }
  });
});
