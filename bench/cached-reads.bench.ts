import Fastify from 'fastify';
import { performance } from 'node:perf_hooks';
import { BenchReport } from './lib/report.js';
import { bearer, createProject, signUp } from '../test/helpers/accounts.js';
import { createTestApp } from '../test/helpers/app.js';

/**
 * The reads every request makes, on the embedded database: GET /v0/projects/:project with a session token (the
 * caller's user, the project, its organization and the caller's role) and anonymously, through the real app (the
 * production composition over a DuckDB file, requests by fastify's inject), beside the reference of a bare fastify
 * app answering the same JSON body through inject in the same run. Per request: wall time, and CPU time of this
 * process (every thread: DuckDB runs on libuv's).
 *
 * Measured 2026-11-27 23:27 UTC (`npm run bench -- cached-reads`, 2 cores, nothing else running), 2,000 requests
 * after 200, wall / CPU per request:
 *   bare fastify (reference)   0.24 ms / 0.32 ms
 *   session token              1.24 ms / 1.34 ms (5.3x the reference)
 *   anonymous                  0.39 ms / 0.50 ms (1.7x)
 * The same run on the code of 8a2713d (users not cached, every read in a transaction of its own): session token
 * 5.13 ms / 5.52 ms (29x a reference of 0.18 ms), anonymous 1.29 ms / 1.45 ms (7.4x). After the session's HMAC key
 * was imported once (d4b9f2e): session token 0.87 ms / 1.00 ms (4.1x a reference of 0.21 ms), anonymous 0.29 ms
 * / 0.36 ms (1.4x).
 */
const REQUESTS = Number(process.env.READ_BENCH_REQUESTS ?? 2_000);
const WARMUP = 200;

async function perRequest(send: () => Promise<{ statusCode: number }>) {
  for (let i = 0; i < WARMUP; i++) await send();
  const cpu = process.cpuUsage();
  const began = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const response = await send();
    if (response.statusCode !== 200) throw new Error(`answered ${response.statusCode}`);
  }
  const used = process.cpuUsage(cpu);
  return {
    wallMs: (performance.now() - began) / REQUESTS,
    cpuMs: (used.user + used.system) / 1000 / REQUESTS,
  };
}

const t = await createTestApp();
try {
  const ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Public', slug: 'public', visibility: 'public' });
  const url = '/v0/projects/public';
  const body = (await t.app.inject({ method: 'GET', url })).json() as unknown;
  const bare = Fastify();
  bare.get(url, async () => body);
  await bare.ready();

  const reference = await perRequest(() => bare.inject({ method: 'GET', url }));
  const session = await perRequest(() => t.app.inject({ method: 'GET', url, headers: bearer(ada.token) }));
  const anonymous = await perRequest(() => t.app.inject({ method: 'GET', url }));
  await bare.close();

  const report = new BenchReport(`GET ${url}, ${REQUESTS} requests after ${WARMUP}`);
  for (const [name, figures] of [
    ['bare fastify', reference],
    ['session token', session],
    ['anonymous', anonymous],
  ] as const) {
    report.add(`read/${name}`, 'latency', figures.wallMs * 1e6, `${figures.wallMs.toFixed(3)} ms`);
    report.add(`read/${name}`, 'cpu', figures.cpuMs * 1e6, `${figures.cpuMs.toFixed(3)} ms of CPU`);
  }
  report.ratio('read/session token', 'bare fastify (wall)', session.wallMs, reference.wallMs);
  report.ratio('read/anonymous', 'bare fastify (wall)', anonymous.wallMs, reference.wallMs);
  report.print();
} finally {
  await t.close();
}
