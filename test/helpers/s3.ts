import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The part of s3rver (no type declarations) the tests use. */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverServer;

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as S3rverClass;
const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account.js') as {
  DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void };
};

export const S3_ACCESS_KEY_ID = 'BENCHTRACKTEST';
export const S3_SECRET = 'benchtrack-s3-secret-0001';
DUMMY_ACCOUNT.createKeyPair(S3_ACCESS_KEY_ID, S3_SECRET);

export interface LocalS3 {
  /** http://127.0.0.1:<port> */
  readonly endpoint: string;
  /** Where s3rver keeps the objects: `<directory>/<bucket>/<key>._S3rver_object`. */
  readonly directory: string;
  close(): Promise<void>;
}

/** A real S3-compatible server (s3rver) on 127.0.0.1 with a free port and the given buckets. */
export async function startLocalS3(buckets: readonly string[]): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 'benchtrack-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    directory,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
