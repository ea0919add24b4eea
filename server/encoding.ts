import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const gzipAsync = promisify(gzip);

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
const MIN_BYTES = 8 * 1024;

/** Whether an Accept-Encoding header accepts gzip (`gzip` or `*`, with a quality above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** How the tag of a gzipped representation ends: `"<hash>-gzip"` beside the identity's `"<hash>"`. */
const GZIP_TAG_END = '-gzip"';

/**
 * The ETag of the gzipped representation of a body whose identity ETag is `etag`. Strong tags name one
 * representation byte for byte (RFC 9110 8.8.1), so gzipped bytes get a tag of their own; a cache that stored
 * one representation then never mixes it with the other.
 */
function gzipEtag(etag: string): string {
  return etag.replace(/"$/, GZIP_TAG_END);
}

/**
 * An If-None-Match header with gzip representations' tags written as their identity tags, for comparing with the
 * ETag of the content: a client holding either representation holds the same content.
 */
export function identityTags(header: string | undefined): string | undefined {
  return header?.replaceAll(GZIP_TAG_END, '"');
}

/** The ETag a 304 answer names: the representation the client holds (its gzip tag when it sent that one). */
export function heldEtag(header: string | undefined, etag: string): string {
  return header?.includes(gzipEtag(etag)) ? gzipEtag(etag) : etag;
}

/**
 * A large answer gzipped when the client accepts it. Perf answers run to tens of megabytes of repetitive JSON:
 * zlib level 1 shrinks 27 MB to 2 MB in about 110 ms, on libuv's threads rather than the event loop (levels 4-6
 * cost 2-3x the time for 10% less). An ETag set on the reply becomes the gzip representation's.
 */
export async function encodeBody(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Uint8Array,
): Promise<Buffer> {
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const vary = String(reply.getHeader('Vary') ?? '');
  if (!/\baccept-encoding\b/i.test(vary))
    reply.header('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  if (buffer.byteLength < MIN_BYTES || !acceptsGzip(request.headers['accept-encoding'])) return buffer;
  reply.header('Content-Encoding', 'gzip');
  const etag = reply.getHeader('ETag');
  if (typeof etag === 'string') reply.header('ETag', gzipEtag(etag));
  return gzipAsync(buffer, { level: 1 });
}
