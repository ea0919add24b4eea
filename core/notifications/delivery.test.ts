import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DELIVERY_TIMING, retryDelay, webhookHeaders, webhookSignature } from './delivery.js';

describe('delivery pacing', () => {
  it('retries within 30 s first, at least five times over about an hour, then gives up', () => {
    const delays = DELIVERY_TIMING.retryDelaysMs.map(
      (_, i) => retryDelay(DELIVERY_TIMING, i + 1, 0) as number,
    );
    expect(delays.length).toBeGreaterThanOrEqual(5);
    expect(delays[0]).toBeLessThanOrEqual(30_000);
    const total = delays.reduce((sum, ms) => sum + ms, 0);
    expect(total).toBeGreaterThan(50 * 60_000);
    expect(total).toBeLessThan(75 * 60_000);
    expect(retryDelay(DELIVERY_TIMING, delays.length + 1)).toBeUndefined();
    // an attempt never outlives its lease
    expect(DELIVERY_TIMING.leaseMs).toBeGreaterThan(DELIVERY_TIMING.attemptTimeoutMs * 2);
  });

  it('adds up to a tenth at random', () => {
    expect(retryDelay(DELIVERY_TIMING, 1, 0)).toBe(15_000);
    expect(retryDelay(DELIVERY_TIMING, 1, 0.999)).toBe(16_499);
  });
});

describe('signatures', () => {
  it('are the hex HMAC-SHA256 of the raw body with the secret', () => {
    const body = '{"event":"ping","note":"é"}';
    const expected = createHmac('sha256', 'k3y-s3cret').update(Buffer.from(body, 'utf8')).digest('hex');
    expect(webhookSignature('k3y-s3cret', body)).toBe(`sha256=${expected}`);
  });

  it('go in the headers only with a secret', () => {
    expect(webhookHeaders('ping', 'd-1', null, '{}')).toEqual({
      'content-type': 'application/json',
      'user-agent': 'Benchtrack-Hookshot',
      'x-benchtrack-event': 'ping',
      'x-benchtrack-delivery': 'd-1',
    });
    expect(webhookHeaders('ping', 'd-1', 'k3y-s3cret', '{}')['x-benchtrack-signature']).toBe(
      webhookSignature('k3y-s3cret', '{}'),
    );
  });
});
