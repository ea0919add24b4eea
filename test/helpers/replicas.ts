import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3_ACCESS_KEY_ID, S3_SECRET, startLocalS3 } from './s3.js';

/** A store a replica can point at, started for one test, and the replica object of the configuration. */
export interface ReplicaServer {
  readonly replica: Record<string, unknown> & { scheme: string };
  close(): Promise<void>;
}

export interface ReplicaScheme {
  readonly scheme: string;
  start(): Promise<ReplicaServer>;
}

/** Every scheme of `plus.disaster_recovery`, each against a real server on 127.0.0.1. */
export const REPLICA_SCHEMES: readonly ReplicaScheme[] = [
  {
    scheme: 'file',
    async start() {
      const path = mkdtempSync(join(tmpdir(), 'benchtrack-replica-file-'));
      return {
        replica: { scheme: 'file', path },
        close: async () => rmSync(path, { recursive: true, force: true }),
      };
    },
  },
  {
    scheme: 's3',
    async start() {
      const s3 = await startLocalS3(['replicas']);
      return {
        replica: {
          scheme: 's3',
          bucket: 'replicas',
          path: 'benchtrack/live',
          endpoint: s3.endpoint,
          access_key_id: S3_ACCESS_KEY_ID,
          secret_access_key: S3_SECRET,
        },
        close: () => s3.close(),
      };
    },
  },
];
