import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionFor, type BranchRecord, type HeadRecord } from '../../core/index.js';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let ada: Session;
const P = '/v0/projects/dims';

beforeAll(async () => {
  t = await createTestApp();
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Dims' });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(ada.token), ...(payload ? { payload } : {}) });
const ok = async (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: object) => {
  const response = await call(method, url, payload);
  expect(response.statusCode, response.body).toBe(method === 'POST' ? 201 : 200);
  return response.json();
};

describe.each(['testbeds', 'benchmarks', 'measures', 'branches'] as const)('%s CRUD', (path) => {
  const body = (name: string) => (path === 'measures' ? { name, units: 'widgets' } : { name });

  it('creates, views by UUID, slug or name, renames, deletes', async () => {
    const created = await ok('POST', `${P}/${path}`, body('Ubuntu 24.04 (x86)'));
    expect(created).toMatchObject({ name: 'Ubuntu 24.04 (x86)', slug: 'ubuntu-24-04-x86', archived: false });
    for (const ref of [created.uuid, 'ubuntu-24-04-x86', encodeURIComponent('Ubuntu 24.04 (x86)')]) {
      expect((await call('GET', `${P}/${path}/${ref}`)).json().uuid).toBe(created.uuid);
    }
    const renamed = await ok('PATCH', `${P}/${path}/${created.uuid}`, { name: 'Ubuntu Noble' });
    expect(renamed).toMatchObject({ name: 'Ubuntu Noble', slug: 'ubuntu-24-04-x86' });
    const deleted = await call('DELETE', `${P}/${path}/ubuntu-24-04-x86`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await call('GET', `${P}/${path}/${created.uuid}`)).statusCode).toBe(404);
  });

  it('keeps names and slugs unique in the project', async () => {
    await ok('POST', `${P}/${path}`, body('same'));
    expect((await call('POST', `${P}/${path}`, body('same'))).statusCode).toBe(409);
    const second = await ok('POST', `${P}/${path}`, { ...body('Same!'), slug: undefined });
    expect(second.slug).toMatch(/^same-[0-9a-z]{8}$/);
    expect((await call('POST', `${P}/${path}`, { ...body('Other'), slug: 'same' })).statusCode).toBe(409);
  });

  it('rejects invalid slugs and names, naming the field', async () => {
    const long = await call('POST', `${P}/${path}`, { ...body('x'), slug: 'a'.repeat(65) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain('body.slug: must be at most 64 characters');
    const notSlug = await call('POST', `${P}/${path}`, { ...body('x'), slug: 'Not_A_Slug' });
    expect(notSlug.json().message).toContain('body.slug: must be a slug');
    const limit = { branches: 256, benchmarks: 1024, testbeds: 64, measures: 64 }[path];
    const tooLong = await call('POST', `${P}/${path}`, body('n'.repeat(limit + 1)));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toContain(`body.name: must be at most ${limit} characters`);
    expect((await call('POST', `${P}/${path}`, body('n'.repeat(limit)))).statusCode).toBe(201);
  });

  it('archives and unarchives; lists hide archived ones unless asked', async () => {
    const created = await ok('POST', `${P}/${path}`, body('to archive'));
    await ok('PATCH', `${P}/${path}/${created.slug}`, { archived: true });
    const names = async (query: string) =>
      ((await call('GET', `${P}/${path}?per_page=255${query}`)).json() as { name: string }[]).map(
        (d) => d.name,
      );
    expect(await names('')).not.toContain('to archive');
    expect(await names('&archived=true')).toEqual(['to archive']);
    await ok('PATCH', `${P}/${path}/${created.slug}`, { archived: false });
    expect(await names('')).toContain('to archive');
  });
});

describe('measures', () => {
  it('needs units', async () => {
    const response = await call('POST', `${P}/measures`, { name: 'No Units' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('body.units');
  });
});

describe('lists', () => {
  beforeAll(async () => {
    await t.storage.transaction(async (tx) => {
      const project = await tx.projects.find({ slug: 'dims' });
      const now = new Date();
      for (let i = 0; i < 300; i++) {
        const name = `bench-${String((i * 7919) % 300).padStart(3, '0')}`;
        await tx.benchmarks.insert({
          uuid: crypto.randomUUID(),
          project_id: project!.id,
          name,
          slug: name,
          archived: false,
          created: now,
          modified: now,
        });
      }
    });
  });

  it.each([
    ['name', 'asc', 7],
    ['name', 'desc', 13],
    ['created', 'asc', 255],
  ] as const)(
    'walks 300 items by %s %s in pages of %i, each exactly once',
    async (sort, direction, perPage) => {
      const seen: string[] = [];
      for (let page = 1; ; page++) {
        const response = await call(
          'GET',
          `${P}/benchmarks?per_page=${perPage}&page=${page}&sort=${sort}&direction=${direction}&search=bench-`,
        );
        expect(response.headers['x-total-count']).toBe('300');
        const items = response.json() as { name: string }[];
        if (items.length === 0) break;
        seen.push(...items.map((i) => i.name));
      }
      expect(seen).toHaveLength(300);
      expect(new Set(seen).size).toBe(300);
      if (sort === 'name')
        expect(seen).toEqual(
          [...seen].sort((a, b) => (direction === 'asc' ? a.localeCompare(b) : b.localeCompare(a))),
        );
    },
  );

  it('searches name and slug case-insensitively, and filters by exact name', async () => {
    await ok('POST', `${P}/benchmarks`, { name: 'Fibonacci Recursive', slug: 'fib-rec' });
    const byName = (await call('GET', `${P}/benchmarks?search=FIBONACCI`)).json();
    const bySlug = (await call('GET', `${P}/benchmarks?search=B-REC`)).json();
    expect(byName.map((b: { slug: string }) => b.slug)).toEqual(['fib-rec']);
    expect(bySlug.map((b: { slug: string }) => b.slug)).toEqual(['fib-rec']);
    expect((await call('GET', `${P}/benchmarks?name=bench-007`)).json()).toHaveLength(1);
    expect((await call('GET', `${P}/benchmarks?search=${encodeURIComponent('100%')}`)).json()).toHaveLength(
      0,
    );
  });
});

describe('branches, heads and start points', () => {
  const hash = (n: number) => n.toString(16).padStart(40, '0');
  let main: BranchRecord;

  /** Versions as reports create them: one per hash, numbered per head. */
  async function addVersions(branchSlug: string, hashes: string[]) {
    await t.storage.transaction(async (tx) => {
      const project = (await tx.projects.find({ slug: 'dims' }))!;
      const branch = (await tx.branches.find({ project_id: project.id, slug: branchSlug }))!;
      const head = (await tx.heads.find({ id: branch.head_id! })) as HeadRecord;
      for (const h of hashes) await versionFor(tx, project.id, head, h, new Date());
    });
  }

  beforeAll(async () => {
    await ok('POST', `${P}/branches`, { name: 'main' });
    await addVersions('main', [hash(1), hash(2), hash(3), hash(4), hash(1)]);
    main = (await t.storage.read((r) => r.branches.find({ slug: 'main' })))!;
  });

  it('numbers versions per head and reuses a version for the same hash', async () => {
    const branch = (await call('GET', `${P}/branches/main`)).json();
    expect(branch.head.version).toEqual({ number: 3, hash: hash(4) });
  });

  it('starts a branch from a start point: history up to its version, newest max_versions', async () => {
    const feature = await ok('POST', `${P}/branches`, {
      name: 'feature',
      start_point: { branch: 'main', hash: hash(3), max_versions: 2 },
    });
    expect(feature.head.start_point).toMatchObject({
      branch: main.uuid,
      version: { number: 2, hash: hash(3) },
    });
    expect(feature.head.version).toEqual({ number: 2, hash: hash(3) });
    const linked = await t.storage.read(async (r) => {
      const head = (await r.heads.find({ uuid: feature.head.uuid }))!;
      return (await r.heads.versionIds(head.id, 100, 100)).length;
    });
    expect(linked).toBe(2);
  });

  it('falls back to the latest version for an unknown hash, and ignores an unknown start branch', async () => {
    const unknownHash = await ok('POST', `${P}/branches`, {
      name: 'from-unknown-hash',
      start_point: { branch: 'main', hash: hash(99) },
    });
    expect(unknownHash.head.start_point.version).toEqual({ number: 3, hash: hash(4) });
    const unknownBranch = await ok('POST', `${P}/branches`, {
      name: 'from-nowhere',
      start_point: { branch: 'nope' },
    });
    expect(unknownBranch.head.start_point).toBeNull();
  });

  it('replaces the head when the start point changes, silencing the old head alerts', async () => {
    const before = (await call('GET', `${P}/branches/feature`)).json();
    const oldHead = (await t.storage.read((r) => r.heads.find({ uuid: before.head.uuid })))!;
    await t.storage.transaction((tx) =>
      tx.alerts.insert({
        uuid: crypto.randomUUID(),
        project_id: main.project_id,
        report_id: 0,
        metric_id: 0n,
        head_id: oldHead.id,
        threshold_id: 0,
        model_id: 0,
        boundary_limit: 'upper',
        status: 'active',
        change_before: null,
        change_after: null,
        change_p_value: null,
        created: new Date(),
        modified: new Date(),
      }),
    );
    const same = await ok('PATCH', `${P}/branches/feature`, {
      start_point: { branch: 'main', hash: hash(3) },
    });
    expect(same.head.uuid).toBe(before.head.uuid);
    const moved = await ok('PATCH', `${P}/branches/feature`, {
      start_point: { branch: 'main', hash: hash(4) },
    });
    expect(moved.uuid).toBe(before.uuid);
    expect(moved.archived).toBe(false);
    expect(moved.head.uuid).not.toBe(before.head.uuid);
    expect(moved.head.version).toEqual({ number: 3, hash: hash(4) });
    const old = (await call('GET', `${P}/branches/feature?head=${before.head.uuid}`)).json();
    expect(old.head.replaced).not.toBeNull();
    const alerts = await t.storage.read((r) => r.alerts.all({ head_id: oldHead.id }));
    expect(alerts.map((a) => a.status)).toEqual(['silenced']);
    const reset = await ok('PATCH', `${P}/branches/feature`, {
      start_point: { branch: 'main', hash: hash(4), reset: true },
    });
    expect(reset.head.uuid).not.toBe(moved.head.uuid);
    expect(
      (await call('GET', `${P}/branches?per_page=255`))
        .json()
        .filter((b: { name: string }) => b.name === 'feature'),
    ).toHaveLength(1);
  });
});

describe('thresholds', () => {
  let threshold: { uuid: string; model: { uuid: string; upper_boundary: number } };

  beforeAll(async () => {
    await ok('POST', `${P}/branches`, { name: 'trunk' });
    await ok('POST', `${P}/testbeds`, { name: 'linux' });
  });

  it('creates a threshold, creating a built-in measure with its name and units', async () => {
    threshold = await ok('POST', `${P}/thresholds`, {
      branch: 'trunk',
      testbed: 'linux',
      measure: 'latency',
      test: 't_test',
      upper_boundary: 0.99,
      max_sample_size: 64,
    });
    expect(threshold).toMatchObject({
      branch: { slug: 'trunk' },
      testbed: { slug: 'linux' },
      measure: { slug: 'latency', name: 'Latency', units: 'nanoseconds (ns)' },
      model: {
        test: 't_test',
        upper_boundary: 0.99,
        max_sample_size: 64,
        lower_boundary: null,
        replaced: null,
      },
    });
    const again = await call('POST', `${P}/thresholds`, {
      branch: 'trunk',
      testbed: 'linux',
      measure: 'latency',
      test: 'z_score',
      upper_boundary: 0.9,
    });
    expect(again.statusCode).toBe(409);
  });

  it.each([
    [
      { test: 't_test', upper_boundary: 1.2 },
      'threshold upper_boundary must be in [0.5, 1.0) for t_test, got 1.2',
    ],
    [{ test: 'gaussian', upper_boundary: 0.9 }, 'unknown threshold model "gaussian"'],
    [
      { test: 'static', upper_boundary: 5, max_sample_size: 10 },
      'threshold max_sample_size must not be set (its limits are absolute and read no history) for static, got 10',
    ],
    [
      { test: 't_test', upper_boundary: 0.9, min_sample_size: 1 },
      'threshold min_sample_size must be an integer from 2',
    ],
    [
      { test: 'percentage' },
      'threshold lower_boundary or upper_boundary must be set for percentage, got neither',
    ],
  ])('validates the model with its plugin: %j', async (model, message) => {
    const response = await call('POST', `${P}/thresholds`, {
      branch: 'trunk',
      testbed: 'linux',
      measure: 'throughput',
      ...model,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('names the missing branch or testbed', async () => {
    const response = await call('POST', `${P}/thresholds`, {
      branch: 'nope',
      testbed: 'linux',
      measure: 'latency',
      test: 'iqr',
      upper_boundary: 2,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('branch "nope" not found in this project');
  });

  it('keeps model history: updates add a model, identical ones do not, null removes it', async () => {
    const updated = await ok('PUT', `${P}/thresholds/${threshold.uuid}`, { test: 'iqr', upper_boundary: 3 });
    expect(updated.model).toMatchObject({ test: 'iqr', upper_boundary: 3 });
    expect(updated.model.uuid).not.toBe(threshold.model.uuid);
    const same = await ok('PUT', `${P}/thresholds/${threshold.uuid}`, { test: 'iqr', upper_boundary: 3 });
    expect(same.model.uuid).toBe(updated.model.uuid);
    const historical = (
      await call('GET', `${P}/thresholds/${threshold.uuid}?model=${threshold.model.uuid}`)
    ).json();
    expect(historical.model).toMatchObject({ test: 't_test', replaced: expect.any(String) });
    const removed = await ok('PUT', `${P}/thresholds/${threshold.uuid}`, { test: null });
    expect(removed.model).toBeNull();
    await ok('PUT', `${P}/thresholds/${threshold.uuid}`, { test: 't', upper_boundary: 0.95 });
    expect((await call('GET', `${P}/thresholds/${threshold.uuid}`)).json().model.test).toBe('t_test');

    const models = await call('GET', `${P}/thresholds/${threshold.uuid}/models`);
    expect(models.headers['x-total-count']).toBe('3');
    const summary = (list: { test: string; upper_boundary: number; replaced: string | null }[]) =>
      list.map((m) => [m.test, m.upper_boundary, m.replaced === null]);
    expect(summary(models.json())).toEqual([
      ['t_test', 0.95, true],
      ['iqr', 3, false],
      ['t_test', threshold.model.upper_boundary, false],
    ]);
    const second = await call('GET', `${P}/thresholds/${threshold.uuid}/models?per_page=1&page=2`);
    expect(summary(second.json())).toEqual([['iqr', 3, false]]);
    const oldest = await call('GET', `${P}/thresholds/${threshold.uuid}/models?direction=asc&per_page=1`);
    expect(oldest.json()[0].uuid).toBe(threshold.model.uuid);
    const missing = await call('GET', `${P}/thresholds/00000000-0000-4000-8000-000000000000/models`);
    expect(missing.statusCode).toBe(404);
  });

  it('lists thresholds filtered by branch, testbed and measure', async () => {
    await ok('POST', `${P}/thresholds`, {
      branch: 'trunk',
      testbed: 'linux',
      measure: 'throughput',
      test: 'percentage',
      lower_boundary: 0.1,
    });
    const all = await call('GET', `${P}/thresholds?branch=trunk`);
    expect(all.headers['x-total-count']).toBe('2');
    const one = (await call('GET', `${P}/thresholds?measure=Throughput&testbed=linux`)).json();
    expect(one.map((th: { measure: { slug: string } }) => th.measure.slug)).toEqual(['throughput']);
  });

  it('clones thresholds from the start point only when asked', async () => {
    const plain = await ok('POST', `${P}/branches`, { name: 'no-clone', start_point: { branch: 'trunk' } });
    const cloned = await ok('POST', `${P}/branches`, {
      name: 'clone',
      start_point: { branch: 'trunk', clone_thresholds: true },
    });
    expect((await call('GET', `${P}/thresholds?branch=${plain.slug}`)).json()).toHaveLength(0);
    const copies = (await call('GET', `${P}/thresholds?branch=${cloned.slug}`)).json();
    expect(copies.map((th: { model: { test: string } }) => th.model.test).sort()).toEqual([
      'percentage',
      't_test',
    ]);
  });

  it('searches, filters by exact name, pages and hides thresholds of archived dimensions', async () => {
    type Listed = { uuid: string; branch: { name: string }; measure: { slug: string } };
    const list = async (query: string) => {
      const response = await call('GET', `${P}/thresholds?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      const items: Listed[] = response.json();
      return {
        items,
        total: response.headers['x-total-count'],
        keys: items.map((th) => `${th.branch.name}/${th.measure.slug}`),
      };
    };
    expect((await list('search=THROUGH')).keys.sort()).toEqual(['clone/throughput', 'trunk/throughput']);
    expect((await list('search=clone')).keys.sort()).toEqual(['clone/latency', 'clone/throughput']);
    expect((await list('name=trunk')).keys.sort()).toEqual(['trunk/latency', 'trunk/throughput']);
    expect((await list('name=Throughput')).total).toBe('2');
    expect((await list('name=trun')).total).toBe('0');
    const all = await list('sort=created&direction=asc&per_page=255');
    expect(all.total).toBe('4');
    const byUuid = await list(`search=${all.items[2]!.uuid.slice(0, 13).toUpperCase()}`);
    expect(byUuid.items.map((th) => th.uuid)).toEqual([all.items[2]!.uuid]);
    const pages = [];
    for (const page of [1, 2, 3])
      pages.push(...(await list(`sort=created&direction=asc&per_page=2&page=${page}`)).items);
    expect(pages.map((th) => th.uuid)).toEqual(all.items.map((th) => th.uuid));

    await ok('PATCH', `${P}/branches/clone`, { archived: true });
    expect((await list('per_page=255')).keys.sort()).toEqual(['trunk/latency', 'trunk/throughput']);
    expect((await list('archived=true')).keys.sort()).toEqual(['clone/latency', 'clone/throughput']);
    await ok('PATCH', `${P}/branches/clone`, { archived: false });
    expect((await list('per_page=255')).total).toBe('4');
  });

  it('refuses to delete a dimension that has thresholds, naming them, unless cascading', async () => {
    const blocked = await call('DELETE', `${P}/testbeds/linux`);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().message).toBe(
      'testbed "linux" still has 4 thresholds; delete them first or repeat the request with ?cascade=true to delete everything that uses it',
    );
    expect((await call('DELETE', `${P}/testbeds/linux?cascade=true`)).statusCode).toBe(204);
    expect((await call('GET', `${P}/thresholds?per_page=255`)).json()).toHaveLength(0);
    const orphans = await t.storage.read(async (r) => ({
      models: await r.models.count({}),
      thresholds: await r.thresholds.count({}),
    }));
    expect(orphans).toEqual({ models: 0, thresholds: 0 });
  });
});
