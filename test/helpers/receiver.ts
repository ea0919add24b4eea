import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Delivery pauses short enough for a test (the composition root's `deliveryTiming`): six attempts within two seconds. */
export const FAST_DELIVERY = {
  retryDelaysMs: [200, 200, 200, 200, 200],
  attemptTimeoutMs: 1500,
  leaseMs: 5000,
  pollMs: 100,
};

/** One request a receiver got. */
export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  readonly body: string;
  readonly at: number;
}

/** What a receiver answers: a status and body, or nothing at all. */
export type Plan = { status: number; body?: string } | 'hang';

/** How a receiver answers its `index`-th request (0-based), at once or later. */
export type Answer = (request: Received, index: number) => Plan | Promise<Plan>;

/**
 * A real webhook receiver: an HTTP server on 127.0.0.1 (or `::1`) that keeps every request and answers as told
 * (200 by default).
 */
export async function startReceiver(
  answer: Answer = () => ({ status: 200, body: 'ok' }),
  host = '127.0.0.1',
) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const got: Received = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(got);
      void Promise.resolve(answer(got, received.length - 1)).then((plan) => {
        if (plan !== 'hang')
          response.writeHead(plan.status, { 'content-type': 'text/plain' }).end(plan.body ?? '');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    received,
    port,
    /** The URL of a path on this receiver. */
    url: (path = '/hook') => `${origin}${path}`,
    /** The JSON bodies received on a path, oldest first. */
    bodies: (path = '/hook') => received.filter((r) => r.url === path).map((r) => JSON.parse(r.body) as any),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** The `X-Benchtrack-Signature` a body must carry, computed here independently of the server. */
export function expectedSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
