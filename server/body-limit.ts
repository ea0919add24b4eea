import { Readable } from 'node:stream';
import { errorCodes, type FastifyInstance } from 'fastify';

/** The highest `server.request_body_max_bytes` the configuration takes: fastify's own limit, never reached first. */
export const BODY_LIMIT_CEILING = 2 ** 31 - 1;

/**
 * Refuses request bodies over `limit()`, read for every request from the running configuration, so that a new
 * `server.request_body_max_bytes` applies to the next request without a new listener. A declared Content-Length
 * over it is refused before any byte is read; a body that turns out longer (chunked, or lying) when it passes it.
 */
export function limitBodies(app: FastifyInstance, limit: () => number): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    const max = limit();
    const { 'content-length': declared, 'transfer-encoding': chunked } = request.headers;
    if (declared === undefined && chunked === undefined) return payload;
    if (Number(declared) > max) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    // counted as fastify reads, so the refusal reaches fastify's own listeners, not an unhandled error before them
    return Readable.from(
      (async function* () {
        let received = 0;
        for await (const chunk of payload as AsyncIterable<Buffer>) {
          received += chunk.length;
          if (received > max) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
          yield chunk;
        }
      })(),
      { objectMode: false },
    );
  });
}
