// The figures in README.md: `node --expose-gc measure.js`. Fills one database with reports of 100 metrics (one per
// benchmark, each on a new version) and times, at 10,000 and 30,000 stored metrics, one more report with its history
// query, and a perf query of 10 series; then the heap after garbage collection.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { silentLogger } from 'benchtrack/plugin-kit/testing';
import memory from './index.js';

const storage = await memory.open({ url: 'memory://measure' }, { logger: silentLogger() });
const now = new Date();
const named = (/** @type {string} */ name) => ({
  uuid: randomUUID(),
  name,
  slug: name,
  created: now,
  modified: now,
});
const world = await storage.transaction(async (tx) => {
  const organization = await tx.organizations.insert({
    ...named('o'),
    personal_user_id: null,
    claimed: now,
    license: null,
  });
  const project = await tx.projects.insert({
    ...named('p'),
    organization_id: organization.id,
    url: null,
    visibility: 'public',
  });
  const dimension = { project_id: project.id, archived: false };
  const branch = await tx.branches.insert({ ...named('main'), ...dimension, head_id: null });
  const head = await tx.heads.insert({
    uuid: randomUUID(),
    branch_id: branch.id,
    start_point_branch_id: null,
    start_point_head_id: null,
    start_point_version_id: null,
    max_versions: null,
    created: now,
    replaced: null,
  });
  const testbed = await tx.testbeds.insert({ ...named('t'), ...dimension });
  const benchmarks = Array.from({ length: 100 }, (_, i) => ({ name: `b${i}`, slug: `b${i}` }));
  const inserted = await tx.named.insertMany('benchmark', project.id, benchmarks, now);
  const [measure] = await tx.named.insertMany(
    'measure',
    project.id,
    [{ name: 'latency', slug: 'latency' }],
    now,
  );
  const pairs = inserted.map(
    (b) => /** @type {const} */ ([b.id, /** @type {{ id: number }} */ (measure).id]),
  );
  return {
    project,
    branch,
    head,
    testbed,
    series: await tx.named.ensureSeries(project.id, testbed.id, pairs),
  };
});
const n = world.series.length;
const nan = () => new Float64Array(n).fill(Number.NaN);

/** One report of a metric per series on a new version, after the history query ingest makes. @param {number} k */
const report = (k) =>
  storage.transaction(async (tx) => {
    const version = await tx.versions.insert({
      uuid: randomUUID(),
      project_id: world.project.id,
      number: k,
      hash: null,
      created: now,
    });
    await tx.headVersions.link(world.head.id, [version.id]);
    await tx.metrics.history({
      headId: world.head.id,
      series: world.series,
      maxSamples: new Int32Array(n).fill(64),
      since: new Float64Array(n).fill(-Infinity),
    });
    const stored = await tx.reports.insert({
      uuid: randomUUID(),
      project_id: world.project.id,
      user_id: null,
      branch_id: world.branch.id,
      head_id: world.head.id,
      version_id: version.id,
      testbed_id: world.testbed.id,
      adapter: 'json',
      idempotency_key: null,
      start_time: new Date(k * 1000),
      end_time: new Date(k * 1000 + 1),
      created: now,
    });
    const ids = new Int32Array(n);
    const columns = {
      uuid: Array.from({ length: n }, () => randomUUID()),
      iteration: ids,
      series: world.series,
    };
    const values = { value: new Float64Array(n).fill(1), lower: nan(), upper: nan(), baseline: nan() };
    await tx.metrics.append(stored, {
      ...columns,
      ...values,
      threshold: ids,
      model: ids,
      lowerLimit: nan(),
      upperLimit: nan(),
    });
  });

const time = async (/** @type {() => Promise<unknown>} */ work) => {
  const start = performance.now();
  await work();
  return (performance.now() - start).toFixed(1);
};
let reports = 0;
for (const total of [10_000, 30_000]) {
  while ((reports + 1) * n < total) await report(++reports);
  const ingest = await time(() => report(++reports));
  const heads = new Int32Array(10).fill(world.head.id);
  const perf = await time(() =>
    storage.read((r) => r.metrics.perf({ series: world.series.slice(0, 10), heads })),
  );
  /** @type {{ gc?: () => void }} */ (globalThis).gc?.();
  const heap = (process.memoryUsage().heapUsed / 2 ** 20).toFixed(0);
  console.log(`${reports * n} metrics: report ${ingest} ms, perf of 10 series ${perf} ms, heap ${heap} MiB`);
}
await storage.close();
