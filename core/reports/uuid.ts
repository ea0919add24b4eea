import { randomBytes } from 'node:crypto';

/**
 * `count` UUIDs version 7 (RFC 9562) at `now`: 48 bits of Unix milliseconds, then random bits. Metrics get these
 * so that rows written together have neighbouring ids, which keeps DuckDB's min-max indexes useful for lookups by
 * UUID. One draw of random bytes for all of them: a report's metrics take hundreds at once, and a draw per UUID
 * cost more than the rest of their making (bench/ingest-anatomy.ts).
 */
export function uuidv7s(count: number, now: Date = new Date()): string[] {
  const bytes = randomBytes(16 * count);
  let ms = now.getTime();
  const time = new Uint8Array(6);
  for (let i = 5; i >= 0; i--) {
    time[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  const out = new Array<string>(count);
  for (let k = 0; k < count; k++) {
    const at = 16 * k;
    bytes.set(time, at);
    bytes[at + 6] = ((bytes[at + 6] as number) & 0x0f) | 0x70;
    bytes[at + 8] = ((bytes[at + 8] as number) & 0x3f) | 0x80;
    const hex = bytes.toString('hex', at, at + 16);
    out[k] =
      `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  return out;
}
