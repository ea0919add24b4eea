import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { WorkLimit } from '../core/index.js';

/**
 * Heavy requests (perf answers, perf and plot images, expanded report lists) hold tens of megabytes each while
 * they are built. At most 2 are built at once (the machine's cores; DuckDB and the worker pool share them), 16
 * more wait in arrival order, and the rest are answered 503 with Retry-After, so the API's memory stays bounded
 * however many clients ask at once (docs/limits.md has the measured ceiling).
 */
export function defaultHeavyLimit(): WorkLimit {
  return new WorkLimit({
    what: 'heavy requests (perf answers, images, expanded report lists)',
    concurrency: 2,
    queue: 16,
    retryAfterSeconds: 2,
  });
}

export interface PendingAnswersOptions {
  /** Bytes of built answers waiting to be written, over every connection, above which no new one is built. */
  readonly budgetBytes: number;
  /** A connection whose answer makes no progress for this long is closed. */
  readonly stallMs: number;
}

/** Four of the largest perf answers (about 17 MB each); a minute of a client that reads nothing. */
export const PENDING_ANSWERS_DEFAULTS: PendingAnswersOptions = { budgetBytes: 64 * 2 ** 20, stallMs: 60_000 };

/** Bytes a response's connection still has to write: libuv's queue, or the stream's buffer where it has none. */
function queuedBytes(response: ServerResponse): number {
  const socket = response.socket as
    (ServerResponse['socket'] & { _handle?: { writeQueueSize?: number } }) | null;
  return socket?._handle?.writeQueueSize ?? socket?.writableLength ?? 0;
}

/**
 * Built heavy answers that are still being written. A client that reads slowly, or not at all, keeps its answer's
 * bytes in memory but not its heavy place: the place is freed once the answer is handed to the connection. These
 * bytes count against a budget instead (a new heavy answer is built only under it), and a connection whose answer
 * makes no progress for `stallMs` is closed, so stalled readers cannot hold memory, or the budget, for long.
 */
export class PendingAnswers {
  #bytes = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    readonly options: PendingAnswersOptions = PENDING_ANSWERS_DEFAULTS,
    private readonly onStall: (response: ServerResponse, stallMs: number) => void = () => {},
  ) {}

  get bytes(): number {
    return this.#bytes;
  }

  /** Settles once the pending bytes are under the budget. */
  room(): Promise<void> {
    if (this.#bytes < this.options.budgetBytes) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Counts `bytes` until `response` ends, and closes its connection when writing stalls. */
  track(response: ServerResponse, bytes: number): void {
    this.#bytes += bytes;
    let queued = queuedBytes(response);
    let progressed = performance.now();
    const watch = setInterval(
      () => {
        const now = queuedBytes(response);
        if (now < queued || now === 0) progressed = performance.now();
        queued = now;
        if (performance.now() - progressed >= this.options.stallMs) {
          this.onStall(response, this.options.stallMs);
          response.socket?.destroy();
          end();
        }
      },
      Math.min(1000, this.options.stallMs / 4),
    );
    watch.unref();
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      clearInterval(watch);
      this.#bytes -= bytes;
      while (this.#bytes < this.options.budgetBytes && this.#waiting.length > 0) this.#waiting.shift()!();
    };
    response.once('finish', end);
    response.once('close', end);
  }
}

/** What a heavy request does once its answer is built: free its place and hand its bytes to the pending count. */
const handOff = new WeakMap<FastifyRequest, (payload: unknown) => void>();

/**
 * A preHandler that holds a place of `limit` from validation until the answer is built (then `heavyAnswerSent`
 * frees it), or the connection closes; the place is taken only while pending answers are under their budget.
 */
export function holdHeavyPlace(limit: WorkLimit, pending: PendingAnswers) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const ticket = limit.enter();
    reply.raw.once('close', ticket.leave);
    await ticket.ready;
    await pending.room();
    handOff.set(request, (payload) => {
      ticket.leave();
      const bytes =
        typeof payload === 'string' ? Buffer.byteLength(payload) : (payload as Buffer | null)?.length;
      if (bytes && !reply.raw.writableFinished) pending.track(reply.raw, bytes);
    });
  };
}

/** The onSend hook of the application: a heavy request's answer is built, its place goes to the next one. */
export async function heavyAnswerSent(request: FastifyRequest, _reply: FastifyReply, payload: unknown) {
  handOff.get(request)?.(payload);
  handOff.delete(request);
  return payload;
}
