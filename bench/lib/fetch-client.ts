/**
 * A bench's HTTP client in a process of its own, so that the client's work (undici parsing megabytes of answer)
 * does not run on the event loop of the API it measures: argv[2] is `{ url, count, warmup, headers, status }`;
 * it sends `warmup` requests, then `count` one after another, each read to its end, and prints their times in
 * milliseconds as a JSON array on stdout. `fetchFromProcess` starts it.
 */
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

interface Plan {
  readonly url: string;
  readonly count: number;
  readonly warmup: number;
  readonly headers: Record<string, string>;
  readonly status: number;
}

/** Times of `count` requests for `url` made by a client process (after 3 unmeasured ones). */
export async function fetchFromProcess(
  url: string,
  count: number,
  options: { headers?: Record<string, string>; status?: number } = {},
): Promise<number[]> {
  const plan: Plan = {
    url,
    count,
    warmup: 3,
    headers: { 'accept-encoding': 'identity', ...options.headers },
    status: options.status ?? 200,
  };
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), JSON.stringify(plan)],
    { maxBuffer: 1024 * 1024 },
  );
  return JSON.parse(stdout) as number[];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const plan = JSON.parse(process.argv[2] ?? '{}') as Plan;
  const times: number[] = [];
  for (let i = 0; i < plan.warmup + plan.count; i++) {
    const started = performance.now();
    const response = await fetch(plan.url, { headers: plan.headers });
    await response.arrayBuffer();
    if (response.status !== plan.status)
      throw new Error(`${plan.url} answered ${response.status}, not ${plan.status}`);
    if (i >= plan.warmup) times.push(performance.now() - started);
  }
  process.stdout.write(JSON.stringify(times));
}
