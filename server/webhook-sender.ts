import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type ClientRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  blockedRange,
  refusedHost,
  type WebhookOutcome,
  type WebhookPost,
  type WebhookSender,
} from '../core/index.js';

/** Bytes of an answer's body kept for the delivery log; the rest is not read. */
const BODY_KEPT = 1024;
/** Bytes read of an answer at most before the connection is dropped. */
const BODY_READ_MAX = 64 * 1024;

/** Resolves a host name to every address it has (the system resolver by default; tests give their own). */
export type Resolver = (hostname: string, family: number) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname, family) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, family }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/** A refusal of the address a host name resolved to, or of the peer actually connected to. */
class Refused extends Error {}

/**
 * Resolves with `resolver`, leaving out the addresses a webhook may not reach (all of them refused: an error
 * naming the first). The socket connects only to what this answers, so a host name that resolves to a public
 * address when the URL is checked and to a private one when it is delivered (DNS rebinding) is refused.
 */
function guardedLookup(resolver: Resolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname, options.family === 4 || options.family === 6 ? options.family : 0).then(
      (addresses) => {
        const allowed = allowPrivate
          ? addresses
          : addresses.filter((a) => blockedRange(a.address) === undefined);
        if (allowed.length === 0) {
          const first = addresses[0];
          const reason = first ? `${first.address}, a ${blockedRange(first.address)} address` : 'no address';
          return callback(new Refused(`refused: ${hostname} resolves to ${reason}`), '', 0);
        }
        if (options.all) return callback(null, allowed);
        const [one] = allowed as [LookupAddress];
        return callback(null, one.address, one.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/**
 * A sender that POSTs one webhook body and reports what happened, never throwing: the status code and the start
 * of the answer, or the error (refused target, DNS failure, connection error, timeout). Redirects are not
 * followed; only the first 64 KiB of an answer are read. `retry` says whether another attempt may succeed:
 * network errors, timeouts, 408, 429 and 5xx answers; not refusals, redirects or other 4xx answers.
 */
export function webhookSender(resolver: Resolver = systemResolver): WebhookSender {
  return (post) => postWebhook(post, resolver);
}

function postWebhook(post: WebhookPost, resolver: Resolver): Promise<WebhookOutcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const held: { request?: ClientRequest } = {};
    const finish = (outcome: Omit<WebhookOutcome, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      held.request?.destroy();
      resolve({ ...outcome, ms: ms() });
    };
    const fail = (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      finish({ error: message, retry: !(error instanceof Refused) });
    };
    const timer = setTimeout(
      () => finish({ error: `no answer within ${post.timeoutMs} ms`, retry: true }),
      post.timeoutMs,
    );
    let url: URL;
    try {
      url = new URL(post.url);
    } catch {
      return finish({ error: 'the URL is not valid', retry: false });
    }
    // an address or name the URL gives outright is judged before anything is resolved or connected
    const refused = post.allowPrivate ? undefined : refusedHost(url);
    if (refused !== undefined) return finish({ error: `refused: ${refused}`, retry: false });
    const options: RequestOptions = {
      method: 'POST',
      headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
      lookup: guardedLookup(resolver, post.allowPrivate),
      agent: false,
    };
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, options, (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let read = 0;
      const done = () => {
        const body = Buffer.concat(chunks).toString('utf8').slice(0, BODY_KEPT);
        if (status >= 200 && status < 300) finish({ status, body, retry: false });
        else if (status >= 300 && status < 400)
          finish({ status, body, error: 'redirects are not followed', retry: false });
        else finish({ status, body, retry: status === 408 || status === 429 || status >= 500 });
      };
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read <= BODY_READ_MAX) chunks.push(chunk);
        else done();
      });
      response.on('end', done);
      response.on('error', fail);
    });
    // the address actually connected to, checked again: a connection that another path made is caught here
    held.request = request;
    request.on('socket', (socket) => {
      socket.once('connect', () => {
        const peer = socket.remoteAddress;
        const range = peer === undefined ? undefined : blockedRange(peer);
        if (!post.allowPrivate && range !== undefined)
          fail(new Refused(`refused: connected to ${peer}, a ${range} address`));
      });
    });
    request.on('error', fail);
    request.end(post.body);
  });
}
