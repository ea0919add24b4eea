import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ENGINE_LATENCIES,
  ENGINE_RUN,
  parseLatency,
  startResourcesApi,
  type ResourcesApi,
} from './resources-api.js';

// Each test runs the real CLI several times; the whole suite shares two cores.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

let resources: ResourcesApi;
let org: string;
const cli: ResourcesApi['cli'] = (args, input) => resources.cli(args, input);
const json: ResourcesApi['json'] = (args, input) => resources.json(args, input);

beforeAll(async () => {
  resources = await startResourcesApi();
  org = resources.org;
});
afterAll(async () => {
  await resources?.api.close();
});

describe('accounts', () => {
  it('creates an API token from a session, then works with it as the token of every command', () => {
    const created = json(['token', 'create', '--name', 'ci']);
    expect(created.name).toBe('ci');
    resources.token = created.token;
    expect(json(['user', 'view']).email).toBe('ada@example.com');
    expect(json(['token', 'list']).map((t: { name: string }) => t.name)).toEqual(['ci']);
    const renamed = json(['token', 'update', created.uuid, '--name', 'ci-linux']);
    expect(renamed.name).toBe('ci-linux');
  });

  it('lists organizations, and says what to do on a 404', () => {
    expect(json(['org', 'list']).map((o: { slug: string }) => o.slug)).toContain(org);
    const missing = cli(['org', 'view', 'nope']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('GET /v0/organizations/nope failed (404)');
    expect(missing.stderr).toContain('hint: check the UUID, slug or name');
  });
});

describe('a project, its dimensions, thresholds, reports and alerts', () => {
  it('creates a project and fills it with runs until an alert fires', () => {
    const project = json(['project', 'create', org, '--name', 'Engine', '--slug', 'engine']);
    expect(project.slug).toBe('engine');
    expect(json(['project', 'update', 'engine', '--url', 'https://example.com/engine']).url).toBe(
      'https://example.com/engine',
    );
    expect(json(['project', 'update', 'engine', '--url', '_']).url).toBeNull();
    for (const value of ENGINE_LATENCIES.slice(0, -1)) json(ENGINE_RUN, parseLatency(value));
    const alerted = json(ENGINE_RUN, parseLatency(ENGINE_LATENCIES.at(-1)!));
    expect(alerted.counts.alerts.total).toBe(1);
  });

  it('starts a new branch from a start point on a run, with its thresholds', () => {
    const report = json(
      [
        'run',
        '--project',
        'engine',
        '--branch',
        'topic',
        '--testbed',
        'ci',
        '--start-point',
        'main',
        '--start-point-clone-thresholds',
        '--adapter',
        'json',
        '--quiet',
        '--format',
        'json',
      ],
      '{"parse": {"latency": {"value": 10}}}',
    );
    expect(report.branch.head.start_point).not.toBeNull();
    // The cloned threshold and main's history give a boundary at once.
    expect(report.results[0][0].measures[0].boundary.upper_limit).toBeGreaterThan(10);
    expect(json(['threshold', 'list', 'engine', '--branch', 'topic'])).toHaveLength(1);
    expect(cli(['branch', 'delete', 'engine', 'topic', '--cascade']).status).toBe(0);
  });

  it('creates a project that does not exist on a run, in the organization of the token', () => {
    const report = json(
      ['run', '--project', 'made-by-run', '--adapter', 'json', '--quiet', '--format', 'json'],
      '{"x": {"latency": {"value": 1}}}',
    );
    expect(report.project.slug).toBe('made-by-run');
    expect(report.user.slug).toBe(org);
    expect(report.project.organization).toBe(json(['org', 'view', org]).uuid);
  });

  it('lists, views, pages and searches dimensions', () => {
    expect(json(['branch', 'list', 'engine']).map((b: { name: string }) => b.name)).toEqual(['main']);
    const paged = cli(['measure', 'list', 'engine', '--per-page', '1']);
    expect(paged.status).toBe(0);
    expect(JSON.parse(paged.stdout)).toHaveLength(1);
    expect(json(['benchmark', 'list', 'engine', '--search', 'par'])[0].name).toBe('parse');
    expect(json(['testbed', 'view', 'engine', 'ci']).name).toBe('ci');
    expect(json(['measure', 'create', 'engine', '--name', 'Peak memory', '--units', 'bytes (B)']).slug).toBe(
      'peak-memory',
    );
  });

  it('declares the direction of a measure, changes it and clears it', () => {
    const created = json([
      'measure',
      'create',
      'engine',
      '--name',
      'Frames',
      '--units',
      'frames per second',
      '--direction',
      'higher_is_better',
    ]);
    expect(created.direction).toBe('higher_is_better');
    expect(json(['measure', 'update', 'engine', 'frames', '--direction', 'lower_is_better']).direction).toBe(
      'lower_is_better',
    );
    expect(json(['measure', 'update', 'engine', 'frames', '--direction', 'none']).direction).toBeNull();
    const wrong = cli(['measure', 'update', 'engine', 'frames', '--direction', 'up']);
    expect(wrong.status).not.toBe(0);
    expect(wrong.stderr).toContain('lower_is_better');
  });

  it('branches from a start point, shows heads, archives and unarchives', () => {
    const branch = json([
      'branch',
      'create',
      'engine',
      '--name',
      'feature',
      '--start-point-branch',
      'main',
      '--start-point-clone-thresholds',
    ]);
    expect(branch.head.start_point).not.toBeNull();
    const reset = json([
      'branch',
      'update',
      'engine',
      'feature',
      '--start-point-branch',
      'main',
      '--start-point-reset',
    ]);
    expect(reset.head.uuid).not.toBe(branch.head.uuid);
    expect(json(['branch', 'view', 'engine', 'feature', '--head', branch.head.uuid]).head.uuid).toBe(
      branch.head.uuid,
    );
    expect(cli(['archive', '--project', 'engine', '--branch', 'feature']).stdout).toBe(
      'Archived branch feature.\n',
    );
    expect(json(['branch', 'list', 'engine', '--archived']).map((b: { name: string }) => b.name)).toEqual([
      'feature',
    ]);
    expect(cli(['unarchive', '--project', 'engine', '--branch', 'feature']).stdout).toBe(
      'Unarchived branch feature.\n',
    );
    const both = cli(['archive', '--project', 'engine', '--branch', 'feature', '--testbed', 'ci']);
    expect(both.status).toBe(1);
    expect(both.stderr).toContain('name exactly one of --branch, --testbed, --benchmark or --measure');
  });

  it('creates, replaces, views the history of and deletes thresholds', () => {
    const list = json(['threshold', 'list', 'engine', '--branch', 'main']);
    expect(list).toHaveLength(1);
    expect(
      json(['threshold', 'list', 'engine', '--search', list[0].uuid.slice(0, 8).toUpperCase()]),
    ).toHaveLength(1);
    expect(json(['threshold', 'list', 'engine', '--name', 'no-such-dimension'])).toHaveLength(0);
    const created = json([
      'threshold',
      'create',
      'engine',
      '--branch',
      'main',
      '--testbed',
      'ci',
      '--measure',
      'peak-memory',
      '--test',
      't_test',
      '--upper-boundary',
      '0.99',
      '--max-sample-size',
      '64',
    ]);
    expect(created.model).toMatchObject({ test: 't_test', upper_boundary: 0.99, max_sample_size: 64 });
    const replaced = json([
      'threshold',
      'update',
      'engine',
      created.uuid,
      '--test',
      'percentage',
      '--upper-boundary',
      '0.2',
    ]);
    expect(replaced.model.test).toBe('percentage');
    const old = json(['threshold', 'view', 'engine', created.uuid, '--model', created.model.uuid]);
    expect(old.model.test).toBe('t_test');
    expect(json(['threshold', 'update', 'engine', created.uuid, '--remove-model']).model).toBeNull();
    expect(cli(['threshold', 'delete', 'engine', created.uuid]).stdout).toBe(
      `Deleted threshold ${created.uuid}.\n`,
    );
  });

  it('views, dismisses and reactivates alerts; dismisses all', () => {
    const [alert] = json(['alert', 'list', 'engine', '--status', 'active']);
    expect(alert.limit).toBe('upper');
    expect(json(['alert', 'dismiss', 'engine', alert.uuid]).status).toBe('dismissed');
    expect(json(['alert', 'reactivate', 'engine', alert.uuid]).status).toBe('active');
    json(['alert', 'dismiss', 'engine', '--all']);
    expect(json(['alert', 'view', 'engine', alert.uuid]).status).toBe('dismissed');
    const metric = json(['metric', 'view', 'engine', alert.metric.uuid]);
    expect(metric.metric.value).toBe(100);
  });

  it('creates, lists, views (as a table) and deletes reports', () => {
    const report = json([
      'report',
      'create',
      'engine',
      '--branch',
      'main',
      '--testbed',
      'ci',
      '--adapter',
      'json',
      '--results',
      '{"parse": {"latency": {"value": 12}}}',
    ]);
    expect(report.results[0][0].measures[0].metric.value).toBe(12);
    const list = json(['report', 'list', 'engine', '--per-page', '255', '--branch', 'main']);
    expect(list).toHaveLength(5);
    const human = cli(['report', 'view', 'engine', report.uuid, '--format', 'human']);
    expect(human.stdout).toMatch(/│ parse +│ Latency \(ns\) +│ +12 │/);
    expect(cli(['report', 'delete', 'engine', report.uuid]).stdout).toBe(`Deleted report ${report.uuid}.\n`);
    expect(json(['report', 'list', 'engine', '--per-page', '255'])).toHaveLength(4);
  });
});
