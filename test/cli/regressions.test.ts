import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENGINE_RUN, parseLatency, startResourcesApi, type ResourcesApi } from './resources-api.js';

// Each test runs the real CLI several times; the whole suite shares two cores.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

let resources: ResourcesApi;
/** The arguments of run `n`: each run is a commit of its own, so each report has a version of its own. */
const at = (args: readonly string[], n: number) => [...args, '--hash', n.toString(16).padStart(40, '0')];
/** ENGINE_RUN printing the human report (its `--quiet --format json` left out). */
const human = ENGINE_RUN.filter(
  (arg, i) => arg !== '--quiet' && arg !== '--format' && ENGINE_RUN[i - 1] !== '--format',
);

beforeAll(async () => {
  resources = await startResourcesApi();
  resources.json(['project', 'create', resources.org, '--name', 'Engine', '--slug', 'engine']);
  for (const [n, latency] of [10, 11, 10].entries())
    resources.json(at(ENGINE_RUN, n + 1), parseLatency(latency));
});
afterAll(async () => {
  await resources?.api.close();
});

describe('regressions in the CLI', () => {
  it('run prints the regression its report opened, with its range, series, change and link', () => {
    const result = resources.cli(at(human, 4), parseLatency(100));
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /1 regression:\n {2}regression v2 \([0-9a-f]{7}\)\.\.v3 \([0-9a-f]{7}\): parse \+\d+\.\d\d% \(suspected, opened\)\n {4}http:\/\/localhost:3000\/console\/projects\/engine\/regressions\/[0-9a-f-]{36}\n/,
    );
  });

  it('run continues the same regression on the next report at the new level, in JSON and HTML', () => {
    const report = resources.json(at(ENGINE_RUN, 5), parseLatency(101));
    expect(report.regressions).toHaveLength(1);
    expect(report.regressions[0].how).toBe('attached');
    expect(report.regressions[0].regression.first_bad.number).toBe(3);
    const html = resources.cli(
      at(
        ENGINE_RUN.map((arg, i) => (ENGINE_RUN[i - 1] === '--format' ? 'html' : arg)),
        6,
      ),
      parseLatency(99),
    );
    expect(html.status, html.stderr).toBe(0);
    expect(html.stdout).toMatch(/<li><a href="[^"]+\/regressions\/[0-9a-f-]{36}">regression v2/);
  });

  it('lists, views and triages regressions; the history names who did what', () => {
    const [listed, ...rest] = resources.json(['regression', 'list', 'engine', '--status', 'suspected']);
    expect(rest).toEqual([]);
    expect(listed.series.map((s: { benchmark: { name: string } }) => s.benchmark.name)).toEqual(['parse']);
    expect(resources.json(['regression', 'view', 'engine', listed.uuid]).uuid).toBe(listed.uuid);
    const triaged = resources.json([
      'regression',
      'triage',
      'engine',
      listed.uuid,
      '--status',
      'acknowledged',
      '--note',
      'the new parser',
      '--assignee',
      resources.org,
    ]);
    expect(triaged).toMatchObject({
      status: 'acknowledged',
      note: 'the new parser',
      assignee: { slug: resources.org },
    });
    expect(
      resources.json(['regression', 'triage', 'engine', listed.uuid, '--clear', 'note']).note,
    ).toBeNull();
    const history = resources.json(['regression', 'history', 'engine', listed.uuid]);
    expect(history.map((e: { status: string }) => e.status)).toEqual([
      'suspected',
      'acknowledged',
      'acknowledged',
    ]);
    expect(history.at(-1).user.slug).toBe(resources.org);
    expect(
      resources
        .json(['regression', 'list', 'engine', '--status', 'open'])
        .map((r: { uuid: string }) => r.uuid),
    ).toEqual([listed.uuid]);
  });

  it('refuses a triage that names nothing, or a status the detector owns', () => {
    const nothing = resources.cli(['regression', 'triage', 'engine', '00000000-0000-4000-8000-000000000000']);
    expect(nothing.status).toBe(1);
    expect(nothing.stderr).toContain('name what to change');
    const suspected = resources.cli([
      'regression',
      'triage',
      'engine',
      '00000000-0000-4000-8000-000000000000',
      '--status',
      'suspected',
    ]);
    expect(suspected.status).not.toBe(0);
    expect(suspected.stderr).toContain('suspected');
  });
});
