import { describe, expect, it } from 'vitest';
import { WorkLimit } from './work-limit.js';

const limit = () => new WorkLimit({ what: 'tests', concurrency: 2, queue: 1, retryAfterSeconds: 3 });

describe('WorkLimit', () => {
  it('runs up to its concurrency, queues up to its queue, and refuses the rest with a retry hint', async () => {
    const work = limit();
    const a = work.enter();
    const b = work.enter();
    const c = work.enter();
    expect(work.state).toEqual({ running: 2, waiting: 1 });
    let refused: unknown;
    try {
      work.enter();
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ name: 'UnavailableError', details: { retry_after_seconds: 3 } });
    let started = false;
    void c.ready.then(() => (started = true));
    a.leave();
    await c.ready;
    expect(started).toBe(true);
    expect(work.state).toEqual({ running: 2, waiting: 0 });
    b.leave();
    c.leave();
    c.leave(); // leaving twice frees one place only
    expect(work.state).toEqual({ running: 0, waiting: 0 });
  });

  it('drops a waiter that leaves before its turn, rejecting its ready promise', async () => {
    const work = limit();
    const a = work.enter();
    work.enter();
    const waiting = work.enter();
    waiting.leave();
    await expect(waiting.ready).rejects.toMatchObject({ name: 'UnavailableError' });
    a.leave();
    expect(work.state).toEqual({ running: 1, waiting: 0 });
  });
});
