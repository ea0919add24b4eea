/**
 * Continuous replication (plus.disaster_recovery): report ingest p50 with no replica, a `file`
 * replica and an `s3` replica (s3rver on 127.0.0.1), then the time to restore each replica (snapshot plus
 * change sets) into a new database. Each configuration is an API process of its own and s3rver runs in another,
 * as in production; the client sends the same seeded reports to each in interleaved blocks (none, file, s3, none,
 * ...), so a change of the machine's load during the run weighs on the three alike.
 *
 * Run: npm run bench -- replication   (REPLICATION_REPORTS=200 reports per configuration by default)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  createLogger,
  parseConfigDocument,
  restoreDatabase,
  type ConfigDocument,
  type ReplicaConfig,
} from '../core/index.js';
import { storageOpener } from '../server/composition.js';
import { S3_ACCESS_KEY_ID, S3_SECRET } from '../test/helpers/s3.js';
import { startApi, type ApiProcess } from './lib/api-process.js';
import { summarize } from './lib/measure.js';
import { Random } from './lib/random.js';
import { BenchReport } from './lib/report.js';
import { startS3Process } from './lib/s3-process.js';

const REPORTS = Number(process.env.REPLICATION_REPORTS ?? 200);
const BENCHMARKS = 100;
/** Reports a configuration receives in a row before the client moves to the next one. */
const BLOCK = 10;
const root = resolve(fileURLToPath(import.meta.url), '../..');
const dir = mkdtempSync(join(tmpdir(), 'benchtrack-replication-bench-'));

async function ingest(url: string, random: Random, count: number, latencies: number[]): Promise<void> {
  for (let k = 0; k < count; k++) {
    const now = new Date().toISOString();
    const results = Object.fromEntries(
      Array.from({ length: BENCHMARKS }, (_, i) => [
        `case_${i}`,
        { latency: { value: 1000 + random.next() * 20 } },
      ]),
    );
    const started = performance.now();
    const response = await fetch(`${url}/v0/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        project: 'replicated',
        start_time: now,
        end_time: now,
        results: [JSON.stringify(results)],
        settings: { adapter: 'json' },
        thresholds: { models: { latency: { test: 't_test', upper_boundary: 0.99, max_sample_size: 64 } } },
      }),
    });
    await response.arrayBuffer();
    if (response.status !== 201) throw new Error(`POST /v0/run answered ${response.status}`);
    latencies.push(performance.now() - started);
  }
}

const s3 = await startS3Process(['replicas']);
const replicas: Record<string, ReplicaConfig | undefined> = {
  none: undefined,
  file: { scheme: 'file', path: join(dir, 'file-replica') } as ReplicaConfig,
  s3: {
    scheme: 's3',
    bucket: 'replicas',
    endpoint: s3.endpoint,
    access_key_id: S3_ACCESS_KEY_ID,
    secret_access_key: S3_SECRET,
  } as ReplicaConfig,
};
const report = new BenchReport(
  `replication: ${REPORTS} reports of ${BENCHMARKS} metrics per configuration, one client, blocks of ${BLOCK}`,
);
const extras: Record<string, ConfigDocument> = Object.fromEntries(
  Object.entries(replicas).map(([name, replica]) => [
    name,
    replica ? { plus: { disaster_recovery: { replicas: [replica] } } } : {},
  ]),
);
const files = Object.fromEntries(Object.keys(replicas).map((name) => [name, join(dir, `${name}.db`)]));
const apis: Record<string, ApiProcess> = {};
try {
  for (const name of Object.keys(replicas))
    apis[name] = await startApi(root, { file: files[name] }, extras[name] as Record<string, unknown>);
  const latencies: Record<string, number[]> = {};
  const randoms: Record<string, Random> = {};
  for (const name of Object.keys(replicas)) {
    latencies[name] = [];
    randoms[name] = new Random(17);
  }
  for (let sent = 0; sent < REPORTS; sent += BLOCK)
    for (const name of Object.keys(replicas))
      await ingest(
        (apis[name] as ApiProcess).url,
        randoms[name] as Random,
        Math.min(BLOCK, REPORTS - sent),
        latencies[name] as number[],
      );
  // SIGTERM: each process ships its last change set before it exits
  await Promise.all(Object.values(apis).map((api) => api.stop()));
  const p50: Record<string, number> = {};
  for (const [name, replica] of Object.entries(replicas)) {
    const extra = extras[name] as ConfigDocument;
    const file = files[name] as string;
    const summary = summarize(latencies[name] as number[]);
    p50[name] = summary.p50Ms;
    report.add(`ingest/${name}`, 'latency', summary.p50Ms * 1e6, `p50 ${summary.p50Ms.toFixed(1)} ms`);
    if (name !== 'none') report.ratio(`ingest/${name}`, 'no replica', summary.p50Ms, p50.none as number);
    if (!replica) continue;
    const { config } = parseConfigDocument(
      { security: { secret_key: 'bench-secret-key-0123456789abcdef' }, database: { file }, ...extra },
      { kind: 'default', description: 'bench' },
    );
    const logger = createLogger({ name: 'bench', log: { mode: 'stderr_terminal', level: 'error' } });
    const started = performance.now();
    const restored = await restoreDatabase({
      source: 'replica',
      target: join(dir, `${name}-restored.db`),
      force: false,
      dataStore: undefined,
      replicas: config.plus?.disaster_recovery?.replicas,
      open: await storageOpener(config, logger),
    });
    const ms = performance.now() - started;
    report.add(
      `restore/${name}`,
      'latency',
      ms * 1e6,
      `${ms.toFixed(0)} ms (${restored.replica?.changes ?? 0} change sets)`,
    );
  }
} finally {
  await Promise.all(Object.values(apis).map((api) => api.child.exitCode === null && api.stop()));
  await s3.close();
  rmSync(dir, { recursive: true, force: true });
}
report.print();
