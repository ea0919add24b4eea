/**
 * Continuous replication (plus.disaster_recovery, issue 17): report ingest p50 with no replica, a `file`
 * replica and an `s3` replica (s3rver on 127.0.0.1), one after the other in one run on the same seeded
 * reports; then the time to restore each replica (snapshot plus change sets) into a new database.
 *
 * Run: npm run bench -- replication   (REPLICATION_REPORTS=200 by default)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  createLogger,
  parseConfigDocument,
  restoreDatabase,
  type ConfigDocument,
  type ReplicaConfig,
} from '../core/index.js';
import { storageOpener } from '../server/composition.js';
import { S3_ACCESS_KEY_ID, S3_SECRET, startLocalS3 } from '../test/helpers/s3.js';
import { summarize } from './lib/measure.js';
import { Random } from './lib/random.js';
import { BenchReport } from './lib/report.js';
import { startBenchServer } from './lib/server.js';

const REPORTS = Number(process.env.REPLICATION_REPORTS ?? 200);
const BENCHMARKS = 100;
const dir = mkdtempSync(join(tmpdir(), 'benchtrack-replication-bench-'));

async function ingest(url: string, random: Random): Promise<number[]> {
  const latencies: number[] = [];
  for (let k = 0; k < REPORTS; k++) {
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
  return latencies;
}

const s3 = await startLocalS3(['replicas']);
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
const report = new BenchReport(`replication: ${REPORTS} reports of ${BENCHMARKS} metrics, one client`);
const p50: Record<string, number> = {};
try {
  for (const [name, replica] of Object.entries(replicas)) {
    const extra: ConfigDocument = replica ? { plus: { disaster_recovery: { replicas: [replica] } } } : {};
    const file = join(dir, `${name}.db`);
    const server = await startBenchServer(file, extra);
    const latencies = await ingest(server.url, new Random(17));
    await server.close();
    const summary = summarize(latencies);
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
  await s3.close();
  rmSync(dir, { recursive: true, force: true });
}
report.print();
