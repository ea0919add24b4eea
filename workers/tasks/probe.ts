import { threadId } from 'node:worker_threads';
import { transferResult } from './transfer.js';

export interface ProbeInput {
  readonly values: Float64Array;
  /** Fault injection for the pool's own tests: `hang` loops forever, `exit` ends the thread mid-task. */
  readonly fault?: 'hang' | 'exit';
}

export interface ProbeOutput {
  /** Thread that ran the task (the main thread is 0). */
  readonly threadId: number;
  /** Byte length of `values` as the worker received it: non-zero proves it arrived. */
  readonly receivedBytes: number;
  /** The input doubled, in a new buffer moved back to the caller. */
  readonly doubled: Float64Array;
}

/**
 * Round-trip probe of the worker pool: used to measure the cost of a task hop (which decides when small jobs
 * run inline) and to check at start-up that workers load.
 */
export default function probe({ values, fault }: ProbeInput): ProbeOutput {
  if (fault === 'exit') process.exit(3);
  if (fault === 'hang') hang();
  const doubled = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) doubled[i] = (values[i] as number) * 2;
  return transferResult({ threadId, receivedBytes: values.byteLength, doubled }, [doubled]);
}

/**
 * A task stuck in a loop, as the plot axis once was: it never returns and never lets its thread's event loop
 * run, so only terminating the thread ends it. Each turn sleeps 5 ms (Atomics.wait) instead of spinning, so the
 * stuck thread does not take a whole core from the rest of the test run for its seconds of time limit; termination
 * interrupts it in the loop's JavaScript or in the wait alike.
 */
function hang(): never {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  for (;;) Atomics.wait(cell, 0, 0, 5);
}
