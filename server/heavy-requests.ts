import type { FastifyReply, FastifyRequest } from 'fastify';
import { WorkLimit } from '../core/index.js';

/**
 * Heavy requests (perf answers, perf and plot images, expanded report lists) hold tens of megabytes each while
 * they are built and sent. At most 2 run at once (the machine's cores; DuckDB and the worker pool share them),
 * 16 more wait in arrival order, and the rest are answered 503 with Retry-After, so the API's memory stays
 * bounded however many clients ask at once (docs/limits.md has the measured ceiling).
 */
export function defaultHeavyLimit(): WorkLimit {
  return new WorkLimit({
    what: 'heavy requests (perf answers, images, expanded report lists)',
    concurrency: 2,
    queue: 16,
    retryAfterSeconds: 2,
  });
}

/**
 * A preHandler that holds a place of `limit` from validation until the answer is sent or the connection closes
 * (an answer still being written to a slow client still holds its memory).
 */
export function holdHeavyPlace(limit: WorkLimit) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const ticket = limit.enter();
    reply.raw.once('close', ticket.leave);
    await ticket.ready;
  };
}
