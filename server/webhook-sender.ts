import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type ClientRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { blockedRange, urlHost, type WebhookPost, type WebhookOutcome } from '../core/index.js';

/** Bytes of an answer's body kept for the delivery log; the rest is not read. */
const BODY_KEPT = 1024;
/** Bytes read of an answer at most before the connection is dropped. */
const BODY_READ_MAX = 64 * 1024;

/** A refusal of the address a host name resolved to, or of the peer actually connected to. */
class Refused extends Error {
  readonly refused = true;
}

/**
 * Resolves like the system resolver, leaving out the addresses a webhook may not reach (all of them refused: an
 * error naming the first). The socket connects only to what this answers, so a host name that resolves to a
 * public address when the URL is checked and to a private one when it is delivered (DNS rebinding) is refused.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = allowPrivate ? addresses : addresses.filter((a) => blockedRange(a.address) === undefined);
      if (allowed.length === 0) {
        const first = addresses[0];
        const reason = first ? `${first.address} is a ${blockedRange(first.address)} address` : 'no address';
        return callback(new Refused(`refused: ${hostname} resolves to ${reason}`), '', 0);
      }
      if (options.all) return callback(null, allowed);
      const [one] = allowed;
      return callback(null, one!.address, one!.family);
    });
  };
}

/**
 * POSTs one webhook body and reports what happened, never throwing: the status code and the start of the answer,
 * or the error (refused target, DNS failure, connection error, timeout). Redirects are not followed; only the
 * first 64 KiB of an answer are read. `retry` says whether another attempt may succeed: network errors,
 * timeouts, 429 and 5xx answers; not refusals, redirects or other 4xx answers.
 */
export function postWebhook(post: WebhookPost): Promise<WebhookOutcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let request: ClientRequest | undefined;
    const finish = (outcome: Omit<WebhookOutcome, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      resolve({ ...outcome, ms: ms() });
    };
    const fail = (error: unknown) => {
      const refused = error instanceof Refused;
      const message = error instanceof Error ? error.message : String(error);
      finish({ error: message, retry: !refused });
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
    const host = urlHost(url);
    if (!post.allowPrivate && isIP(host) !== 0 && blockedRange(host) !== undefined) {
      return finish({ error: `refused: ${host} is a ${blockedRange(host)} address`, retry: false });
    }
    const options: RequestOptions = {
      method: 'POST',
      headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
      lookup: guardedLookup(post.allowPrivate),
      agent: false,
    };
    request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, options, (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let read = 0;
      const done = () => {
        const body = Buffer.concat(chunks).toString('utf8').slice(0, BODY_KEPT);
        if (status >= 200 && status < 300) finish({ status, body, retry: false });
        else if (status >= 300 && status < 400)
          finish({ status, body, error: 'redirects are not followed', retry: false });
        else finish({ status, body, retry: status === 429 || status >= 500 });
      };
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read <= BODY_READ_MAX) chunks.push(chunk);
        else done();
      });
      response.on('end', done);
      response.on('error', fail);
    });
    // the address actually connected to, checked again: a lookup that another layer bypassed is caught here
    request.on('socket', (socket) => {
      socket.once('connect', () => {
        const peer = socket.remoteAddress;
        if (!post.allowPrivate && peer !== undefined && blockedRange(peer) !== undefined)
          fail(new Refused(`refused: connected to ${peer}, a ${blockedRange(peer)} address`));
      });
    });
    request.on('error', fail);
    request.end(post.body);
  });
}
