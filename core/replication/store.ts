import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where a replica lives: a flat namespace of keys (`a/b/c`) holding files. `put` is atomic: a reader sees the
 * whole object or none, so a change is committed by writing its manifest last.
 */
export interface ReplicaStore {
  /** Where the replica is, for logs and the status endpoint: never a credential. */
  readonly location: string;
  put(key: string, file: string): Promise<void>;
  get(key: string, file: string): Promise<void>;
  /** Every key that starts with `prefix`, in no particular order. */
  list(prefix: string): Promise<string[]>;
  remove(keys: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** `path` with a trailing `/` unless empty, so keys join under it. */
export function prefixOf(path: string | undefined): string {
  const trimmed = (path ?? '').replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `${trimmed}/`;
}

/**
 * How long a data store (a replica's, or database.data_store) may go without answering or moving a byte before
 * the call is abandoned: connecting, a request waiting for its answer, a transfer that stopped. A transfer that
 * keeps moving has no limit, however large the file.
 */
export const STORE_STALL_MS = 30_000;

/** The error of a call abandoned after {@link STORE_STALL_MS} without progress. */
export function stalled(what: string, stallMs: number): Error {
  return Object.assign(new Error(`${what}: no answer or progress from the store for ${stallMs} ms`), {
    name: 'TimeoutError',
  });
}

/**
 * Runs `call` with a signal that aborts once `stallMs` pass without progress (the call reports progress through
 * `progress`), and rejects then even if the call ignores the signal.
 */
export function within<T>(
  stallMs: number,
  what: string,
  call: (signal: AbortSignal, progress: () => void) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = stalled(what, stallMs);
      controller.abort(error);
      reject(error);
    }, stallMs);
    call(controller.signal, () => timer.refresh()).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(controller.signal.aborted ? controller.signal.reason : error);
      },
    );
  });
}

/** Pipes `source` into `destination`, and destroys both once `stallMs` pass without a chunk moving. */
export function pipeWithin(
  stallMs: number,
  what: string,
  source: NodeJS.ReadableStream,
  destination: NodeJS.WritableStream,
): Promise<void> {
  return within(stallMs, what, (signal, progress) => {
    const watch = new Transform({
      transform(chunk, _encoding, done) {
        progress();
        done(null, chunk);
      },
    });
    return pipeline(source, watch, destination, { signal });
  });
}
