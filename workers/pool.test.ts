import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../core/index.js';
import { errorName } from '../core/index.js';
import { CLOSE_GRACE_MS, WorkerPool } from './pool.js';
import type { ProbeOutput } from './tasks/probe.js';

const pool = new WorkerPool(
  createLogger({ name: 'test', log: { mode: 'stderr_terminal', level: 'error' } }),
  {
    maxThreads: 2,
  },
);
afterAll(() => pool.close());

describe('WorkerPool', () => {
  it('runs tasks off the main thread and moves typed arrays both ways', async () => {
    const values = Float64Array.from({ length: 1000 }, (_, i) => i + 0.5);
    const output = await pool.run<ProbeOutput>('probe', { values }, [values.buffer]);
    expect(threadId).toBe(0);
    expect(output.threadId).toBeGreaterThan(0);
    expect(output.receivedBytes).toBe(8000);
    expect(values.byteLength).toBe(0);
    expect(output.doubled).toBeInstanceOf(Float64Array);
    expect(output.doubled.length).toBe(1000);
    expect(output.doubled[999]).toBe(1999);
  });

  it('copies instead of moving when no transfer list is given', async () => {
    const values = new Float64Array([1, 2, 3]);
    const output = await pool.run<ProbeOutput>('probe', { values });
    expect(values.byteLength).toBe(24);
    expect([...output.doubled]).toEqual([2, 4, 6]);
  });

  it('loads TypeScript tasks in a process started outside the repository', async () => {
    // tsx must be found from the pool's own location, not the working directory (an API run from anywhere)
    const script = `
      const { WorkerPool } = await import(${JSON.stringify(new URL('./pool.ts', import.meta.url).href)});
      const pool = new WorkerPool({ debug() {}, error() {} }, { maxThreads: 1 });
      const output = await pool.run('probe', { values: new Float64Array([1, 2]) });
      await pool.close();
      process.stdout.write(String(output.receivedBytes));`;
    const loader = import.meta.resolve('tsx');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', loader, '--input-type=module', '-e', script],
      { cwd: tmpdir(), timeout: 60_000 },
    );
    expect(stdout).toBe('16');
  });

  it('refuses work once closed', async () => {
    const other = new WorkerPool(
      createLogger({ name: 't', log: { mode: 'stderr_terminal', level: 'error' } }),
    );
    await other.close();
    await expect(other.run('probe', { values: new Float64Array(1) })).rejects.toThrow(
      'the worker pool is closed',
    );
  });

  describe('faults', () => {
    const quiet = () => createLogger({ name: 't', log: { mode: 'stderr_terminal', level: 'critical' } });
    const values = () => new Float64Array([1, 2]);

    it('stops a task past its time limit, replaces its thread, and goes on', async () => {
      const one = new WorkerPool(quiet(), { maxThreads: 1, taskTimeLimit: 3_000 });
      try {
        const before = await one.run<ProbeOutput>('probe', { values: values() });
        const stuck = one.run('probe', { values: values(), fault: 'hang' }).catch((e: unknown) => e);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(one.health()).toMatchObject({ status: 'ok', tasks_in_flight: 1, task_time_limit_ms: 3_000 });
        expect(one.health().oldest_task_ms).toBeGreaterThanOrEqual(250);
        const error = await stuck;
        expect(errorName(error)).toBe('WorkerError');
        expect((error as Error).message).toContain('did not finish within 3000 ms');
        const after = await one.run<ProbeOutput>('probe', { values: values() });
        expect([...after.doubled]).toEqual([2, 4]);
        expect(after.threadId).not.toBe(before.threadId);
        expect(one.health()).toMatchObject({ status: 'ok', tasks_in_flight: 0, tasks_timed_out: 1 });
      } finally {
        await one.close();
      }
    }, 20_000);

    it('answers a task whose thread dies with a WorkerError, and goes on', async () => {
      const one = new WorkerPool(quiet(), { maxThreads: 1 });
      try {
        const error = await one.run('probe', { values: values(), fault: 'exit' }).catch((e: unknown) => e);
        expect(errorName(error)).toBe('WorkerError');
        expect((error as Error).message).toContain('worker thread running the probe task died');
        const after = await one.run<ProbeOutput>('probe', { values: values() });
        expect([...after.doubled]).toEqual([2, 4]);
        expect(one.health()).toMatchObject({ status: 'ok', threads_crashed: 1, tasks_timed_out: 0 });
      } finally {
        await one.close();
      }
    }, 20_000);

    it('closes within its grace period while a task is stuck, and answers that task', async () => {
      const one = new WorkerPool(quiet(), { maxThreads: 1 });
      const stuck = one.run('probe', { values: values(), fault: 'hang' }).catch((e: unknown) => e);
      const queued = one.run('probe', { values: values() }).catch((e: unknown) => e);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = performance.now();
      await one.close();
      expect(performance.now() - started).toBeLessThan(CLOSE_GRACE_MS + 2_000);
      expect(await stuck).toBeInstanceOf(Error);
      expect(await queued).toBeInstanceOf(Error);
      expect(one.health().status).toBe('closed');
    }, 40_000);
  });
});
