/**
 * The ingest bench's clients, in a process of their own (`loadFromProcess` in ingest-data.ts starts it): argv[2]
 * is `{ urls, clients, perClient, lanes }`; prints one LoadResult as JSON on stdout.
 */
import { performance } from 'node:perf_hooks';
import { post, BENCHMARKS, type LoadResult } from './ingest-data.js';
import { Random } from './random.js';

const { urls, clients, perClient, lanes } = JSON.parse(process.argv[2] ?? '{}') as {
  urls: string[];
  clients: number;
  perClient: number;
  lanes: boolean;
};
const cpu0 = process.cpuUsage();
const started = performance.now();
let failed = 0;
const latencies: number[] = [];
await Promise.all(
  Array.from({ length: clients }, async (_, c) => {
    const random = new Random(7 + c);
    for (let i = 0; i < perClient; i++)
      await post(urls[c % urls.length] as string, random, lanes ? c : undefined).then(
        (ms) => latencies.push(ms),
        (error: Error) => {
          if (!/answered 5\d\d/.test(error.message)) throw error;
          failed++;
        },
      );
  }),
);
const wallSeconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpu0);
const reports = clients * perClient;
const result: LoadResult = {
  perSecond: ((reports - failed) * BENCHMARKS * 2) / wallSeconds,
  failed,
  reports,
  latencies,
  clientCpuSeconds: (cpu.user + cpu.system) / 1e6,
  wallSeconds,
};
process.stdout.write(JSON.stringify(result));
