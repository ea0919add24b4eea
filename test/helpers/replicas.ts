import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AZURE_ACCOUNT, AZURE_KEY, startAzurite } from './azurite.js';
import { startLocalGcs } from './gcs.js';
import { S3_ACCESS_KEY_ID, S3_SECRET, startLocalS3 } from './s3.js';
import { SFTP_PASSWORD, startSshd } from './sshd.js';

/** A store a replica can point at, started for one test, and the replica object of the configuration. */
export interface ReplicaServer {
  readonly replica: Record<string, unknown> & { scheme: string };
  close(): Promise<void>;
}

export interface ReplicaScheme {
  readonly scheme: string;
  /** The scheme and how it authenticates. */
  readonly label: string;
  start(): Promise<ReplicaServer>;
}

/** Every scheme of `plus.disaster_recovery`, each against a real server on 127.0.0.1. */
export const REPLICA_SCHEMES: readonly ReplicaScheme[] = [
  {
    scheme: 'file',
    label: 'file',
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
    label: 's3',
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
  {
    scheme: 'sftp',
    label: 'sftp with a key',
    async start() {
      const sshd = await startSshd();
      return {
        replica: {
          scheme: 'sftp',
          host: '127.0.0.1',
          port: sshd.port,
          user: sshd.keyUser,
          key_path: sshd.keyPath,
          host_key: sshd.hostKey,
          path: join(sshd.keyDirectory, 'replica'),
        },
        close: () => sshd.close(),
      };
    },
  },
  {
    scheme: 'sftp',
    label: 'sftp with a password',
    async start() {
      const sshd = await startSshd();
      return {
        replica: {
          scheme: 'sftp',
          host: '127.0.0.1',
          port: sshd.port,
          user: sshd.passwordUser,
          password: SFTP_PASSWORD,
          path: 'replica',
        },
        close: () => sshd.close(),
      };
    },
  },
  {
    scheme: 'abs',
    label: 'abs',
    async start() {
      const azurite = await startAzurite(['replicas']);
      return {
        replica: {
          scheme: 'abs',
          account_name: AZURE_ACCOUNT,
          account_key: AZURE_KEY,
          bucket: 'replicas',
          path: 'benchtrack/live',
          endpoint: azurite.endpoint,
        },
        close: () => azurite.close(),
      };
    },
  },
  {
    scheme: 'gcs',
    label: 'gcs (a local stand-in of the JSON API)',
    async start() {
      const gcs = await startLocalGcs(['replicas']);
      const before = process.env.CLOUD_APPLICATION_CREDENTIALS;
      process.env.CLOUD_APPLICATION_CREDENTIALS = gcs.credentialsFile;
      return {
        replica: { scheme: 'gcs', bucket: 'replicas', path: 'benchtrack/live', endpoint: gcs.endpoint },
        async close() {
          if (before === undefined) delete process.env.CLOUD_APPLICATION_CREDENTIALS;
          else process.env.CLOUD_APPLICATION_CREDENTIALS = before;
          await gcs.close();
        },
      };
    },
  },
];
